import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { PIN_KINDS } from '@axel/domain/esign/esign.events';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useLoad } from '../../components/useLoad';
import { useSession } from '../../session/store';
import { esignApi, type EsignPin, type PinKind } from './esign.api';
import { missingForSend, type Rect } from './esign.rules';
import { ColorDot, SignersPanel } from './SignersPanel';
import { WizardSteps } from './WizardSteps';

const PinBoard = lazy(() => import('./PinBoard'));

/**
 * Step 2 (`/esigns/package/prepare?id=`, `/esigns/edit/2/:packageId`): the signers, and their fields
 * placed on the pages. Read-only for a package already sent (`/esigns/view/2/:packageId`).
 */
export const PackagePrepareStep = ({ packageId, readOnly = false }: { packageId: string; readOnly?: boolean }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const userId = user?.id ?? '';
  const { data: pkg, error: loadError, reload } = useLoad(userId ? () => esignApi.get(userId, packageId) : null, [userId, packageId]);
  const [error, setError] = useState<NormalisedError | null>(null);
  const [entryIndex, setEntryIndex] = useState(0);
  const [signerId, setSignerId] = useState<string>('');
  const [kind, setKind] = useState<PinKind>('signature');
  const [busy, setBusy] = useState(false);
  const editable = !readOnly && pkg?.status === 'draft';

  const run = async (call: () => Promise<unknown>) => {
    setError(null);
    setBusy(true);
    try {
      await call();
    } catch (e) {
      setError(toApiError(e).toJSON());
    } finally {
      setBusy(false);
      reload();
    }
  };

  if (!pkg)
    return (
      <Container sx={{ py: 3 }}>
        {loadError ? <ErrorAlert error={loadError} testId="esign-prepare-error" /> : <CircularProgress aria-label={t('common.loading')} />}
      </Container>
    );

  const entry = pkg.entries[Math.min(entryIndex, pkg.entries.length - 1)];
  const activeSigner = pkg.links.find((s) => s.id === signerId) ?? pkg.links[0];
  const missing = missingForSend(pkg);
  const move = (pin: EsignPin, to: Rect) =>
    run(async () => {
      // fields have no edit call: the moved one is placed anew, then the old one removed
      await esignApi.placePin(userId, pkg.id, { entryId: pin.entryId, signerId: pin.signerId, kind: pin.kind, page: pin.page, ...to });
      await esignApi.removePin(userId, pkg.id, pin.id);
    });

  return (
    <Container maxWidth="lg" sx={{ py: 3 }} data-testid="esign-prepare-step" data-status={pkg.status}>
      {!readOnly && <WizardSteps active={1} />}
      <Typography variant="h5" component="h1" sx={{ mb: 2, overflowWrap: 'anywhere' }}>
        {pkg.name}
      </Typography>
      <ErrorAlert error={error} testId="esign-prepare-error" />
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: '340px minmax(0, 1fr)' }, gap: 2, alignItems: 'start' }}>
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}>
          <SignersPanel
            signers={pkg.links}
            editable={editable}
            pinCount={(id) => pkg.pins.filter((p) => p.signerId === id).length}
            onAdd={async (signer) => {
              const added = await esignApi.addSigner(userId, pkg.id, signer);
              setSignerId(added.id);
              reload();
            }}
            onRemove={async (signer) => {
              await esignApi.removeSigner(userId, pkg.id, signer.id);
              reload();
            }}
          />
          {editable && pkg.links.length > 0 && activeSigner && (
            <Paper variant="outlined" sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1.5 }} data-testid="esign-tools">
              <Typography variant="subtitle1">{t('esign.prepare.placeTitle')}</Typography>
              <TextField
                select
                size="small"
                label={t('esign.prepare.placeFor')}
                value={activeSigner.id}
                onChange={(e) => setSignerId(e.target.value)}
                slotProps={{ htmlInput: { 'data-testid': 'esign-place-signer' } }}
              >
                {pkg.links.map((s) => (
                  <MenuItem key={s.id} value={s.id} data-testid="esign-place-signer-option" data-email={s.email}>
                    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
                      <ColorDot color={s.color} />
                      <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
                        {s.name}
                      </Box>
                    </Box>
                  </MenuItem>
                ))}
              </TextField>
              <ToggleButtonGroup
                exclusive
                size="small"
                value={kind}
                onChange={(_, v: PinKind | null) => v && setKind(v)}
                aria-label={t('esign.prepare.kind')}
                sx={{ flexWrap: 'wrap' }}
              >
                {PIN_KINDS.map((k) => (
                  <ToggleButton key={k} value={k} data-testid={`esign-kind-${k}`}>
                    {t(`esign.pins.${k}`)}
                  </ToggleButton>
                ))}
              </ToggleButtonGroup>
              <Typography variant="body2" color="text.secondary">
                {t('esign.prepare.placeHelp')}
              </Typography>
            </Paper>
          )}
          {editable && missing.length > 0 && (
            <Alert severity="info" data-testid="esign-missing">
              {missing.map((m) => t(`esign.missing.${m}`)).join(' ')}
            </Alert>
          )}
        </Box>
        <Box sx={{ minWidth: 0 }}>
          {pkg.entries.length > 1 && (
            <Tabs
              value={Math.min(entryIndex, pkg.entries.length - 1)}
              onChange={(_, v: number) => setEntryIndex(v)}
              variant="scrollable"
              allowScrollButtonsMobile
              sx={{ mb: 1 }}
            >
              {pkg.entries.map((e) => (
                <Tab key={e.id} label={e.name} data-testid="esign-entry-tab" />
              ))}
            </Tabs>
          )}
          {entry ? (
            <Suspense fallback={<CircularProgress aria-label={t('common.loading')} />}>
              <PinBoard
                key={entry.id}
                userId={userId}
                packageId={pkg.id}
                entry={entry}
                pins={pkg.pins}
                signers={pkg.links}
                placing={editable && activeSigner && !busy ? { signerId: activeSigner.id, kind } : null}
                onPlace={editable ? (pin) => void run(() => esignApi.placePin(userId, pkg.id, pin)) : undefined}
                onMove={editable ? (pin, to) => void move(pin, to) : undefined}
                onRemove={editable ? (pin) => void run(() => esignApi.removePin(userId, pkg.id, pin.id)) : undefined}
              />
            </Suspense>
          ) : (
            <Alert severity="info">{t('esign.missing.documents')}</Alert>
          )}
        </Box>
      </Box>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, mt: 2, flexWrap: 'wrap' }}>
        {readOnly ? (
          <Button onClick={() => void navigate(`/esigns/view/1/${pkg.id}`)}>{t('common.back')}</Button>
        ) : (
          <>
            <Button onClick={() => void navigate(`/esigns/edit/1/${pkg.id}`)} data-testid="esign-back">
              {t('common.back')}
            </Button>
            <Button
              variant="contained"
              disabled={missing.length > 0 || busy}
              onClick={() => void navigate(`/esigns/package/preview?id=${pkg.id}`)}
              data-testid="esign-next"
            >
              {t('esign.next')}
            </Button>
          </>
        )}
      </Box>
    </Container>
  );
};
