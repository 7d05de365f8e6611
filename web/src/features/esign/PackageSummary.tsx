import ArchiveOutlined from '@mui/icons-material/ArchiveOutlined';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined';
import SendOutlined from '@mui/icons-material/SendOutlined';
import UnarchiveOutlined from '@mui/icons-material/UnarchiveOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMachine } from '@xstate/react';
import { useEffect, useState } from 'react';
import { fromPromise } from 'xstate';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { toApiError, type NormalisedError } from '../../api/errors';
import { CopyableLink } from '../../components/CopyableLink';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDateTime } from '../../components/i18nHelpers';
import { useLoad } from '../../components/useLoad';
import { useSession } from '../../session/store';
import { esignApi, sealedDocumentUrl, type EsignPackageDetail, type EsignSigner } from './esign.api';
import { StatusChip } from './EsignListPage';
import { missingForSend } from './esign.rules';
import { packageSendMachine } from './package-send.machine';
import { ColorDot } from './SignersPanel';
import { draftPasswords, WizardSteps } from './WizardSteps';

const signerState = (s: EsignSigner) => (s.finishedAt ? 'finished' : s.signedAt ? 'signed' : 'waiting');

/** A package's documents and signers, each signer with their fields and where they are in signing. */
const PackageSummary = ({ pkg }: { pkg: EsignPackageDetail }) => {
  const { t, i18n } = useTranslation();
  const signers = [...pkg.links].sort((a, b) => (a.order ?? Number.MAX_SAFE_INTEGER) - (b.order ?? Number.MAX_SAFE_INTEGER));
  return (
    <Stack spacing={2}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
        <Typography variant="h5" component="h1" sx={{ overflowWrap: 'anywhere' }} data-testid="esign-summary-name">
          {pkg.name}
        </Typography>
        <StatusChip status={pkg.status} />
      </Box>
      {pkg.message && (
        <Typography color="text.secondary" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {pkg.message}
        </Typography>
      )}
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="subtitle1">{t('esign.upload.documents')}</Typography>
        <List dense>
          {pkg.entries.map((e) => (
            <ListItem key={e.id} data-testid="esign-summary-doc">
              <ListItemIcon>
                <PictureAsPdfOutlined />
              </ListItemIcon>
              <ListItemText primary={e.name} secondary={t('esign.upload.pages', { count: e.pageCount })} sx={{ overflowWrap: 'anywhere' }} />
            </ListItem>
          ))}
        </List>
      </Paper>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="subtitle1">{t('esign.prepare.signers')}</Typography>
        <List dense>
          {signers.map((s) => (
            <ListItem key={s.id} data-testid="esign-summary-signer" data-email={s.email} data-state={signerState(s)}>
              <ListItemIcon sx={{ minWidth: 28 }}>
                <ColorDot color={s.color} />
              </ListItemIcon>
              <ListItemText
                primary={s.order ? `${s.order}. ${s.name}` : s.name}
                secondary={[
                  s.email,
                  t('esign.prepare.fieldCount', { count: pkg.pins.filter((p) => p.signerId === s.id).length }),
                  pkg.status === 'draft'
                    ? null
                    : s.finishedAt
                      ? t('esign.signer.finishedAt', { date: formatDateTime(s.finishedAt, i18n.language) })
                      : t(`esign.signer.${signerState(s)}`),
                ]
                  .filter(Boolean)
                  .join(' · ')}
                slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } }, secondary: { sx: { overflowWrap: 'anywhere' } } }}
              />
            </ListItem>
          ))}
        </List>
      </Paper>
    </Stack>
  );
};

const usePackage = (packageId: string) => {
  const { user } = useSession();
  const userId = user?.id ?? '';
  return { userId, ...useLoad(userId ? () => esignApi.get(userId, packageId) : null, [userId, packageId]) };
};

/** Step 3 (`/esigns/package/preview?id=`): the package as the signers will get it, then Send (the server mails them). */
export const PackagePreviewStep = ({ packageId }: { packageId: string }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { userId, data: pkg, error } = usePackage(packageId);
  const [password, setPassword] = useState(() => draftPasswords.get(packageId) ?? '');
  const [state, send] = useMachine(
    packageSendMachine.provide({ actors: { send: fromPromise(({ input }) => esignApi.send(userId, input.packageId, input.password)) } }),
    { input: { packageId } },
  );
  const { madePassword, error: sendError } = state.context;
  const sent = state.matches('sent');
  useEffect(() => {
    if (sent) draftPasswords.delete(packageId);
  }, [sent, packageId]);
  if (sent) {
    return (
      <Container maxWidth="sm" sx={{ py: 3 }} data-testid="esign-sent">
        <Alert severity="success" sx={{ mb: 2 }}>
          {t('esign.preview.sent')}
        </Alert>
        {madePassword && (
          <Stack spacing={1} sx={{ mb: 2 }}>
            <Typography>{t('esign.preview.madePassword')}</Typography>
            <CopyableLink
              url={madePassword}
              testId="esign-made-password"
              fullWidth
              labels={{ link: t('esign.upload.password'), copy: t('esign.preview.copy'), copied: t('esign.preview.copied') }}
            />
          </Stack>
        )}
        <Button variant="contained" component={RouterLink} to="/esigns/list" data-testid="esign-to-list">
          {t('esign.preview.toList')}
        </Button>
      </Container>
    );
  }
  if (!pkg)
    return (
      <Container sx={{ py: 3 }}>
        {error ? <ErrorAlert error={error} testId="esign-preview-error" /> : <CircularProgress aria-label={t('common.loading')} />}
      </Container>
    );
  const missing = missingForSend(pkg);
  const shortPassword = password !== '' && password.length < 8;
  return (
    <Container maxWidth="md" sx={{ py: 3 }} data-testid="esign-preview-step">
      <WizardSteps active={2} />
      <PackageSummary pkg={pkg} />
      {pkg.status !== 'draft' && (
        <Alert severity="info" sx={{ mt: 2 }}>
          {t('esign.preview.alreadySent')}
        </Alert>
      )}
      {missing.length > 0 && (
        <Alert severity="warning" sx={{ mt: 2 }} data-testid="esign-missing">
          {missing.map((m) => t(`esign.missing.${m}`)).join(' ')}
        </Alert>
      )}
      <TextField
        sx={{ mt: 2 }}
        fullWidth
        label={t('esign.upload.password')}
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={shortPassword}
        helperText={shortPassword ? t('esign.upload.passwordShort') : t('esign.upload.passwordHelp')}
        slotProps={{ htmlInput: { 'data-testid': 'esign-send-password' } }}
      />
      <ErrorAlert error={sendError} testId="esign-send-error" />
      <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, mt: 2, flexWrap: 'wrap' }}>
        <Button onClick={() => void navigate(`/esigns/edit/2/${pkg.id}`)} data-testid="esign-back">
          {t('common.back')}
        </Button>
        <Button
          variant="contained"
          startIcon={<SendOutlined />}
          disabled={pkg.status !== 'draft' || missing.length > 0 || shortPassword || state.matches('sending')}
          onClick={() => send(state.matches('failed') ? { type: 'RETRY' } : { type: 'SEND', password })}
          data-testid="esign-send"
        >
          {t('esign.preview.send')}
        </Button>
      </Box>
      <Dialog open={state.matches('confirming')} onClose={() => send({ type: 'CANCEL' })} data-testid="esign-send-dialog">
        <DialogTitle>{t('esign.preview.confirmTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('esign.preview.confirmText', { count: pkg.links.length })}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => send({ type: 'CANCEL' })}>{t('common.cancel')}</Button>
          <Button variant="contained" onClick={() => send({ type: 'CONFIRM' })} data-testid="esign-send-confirm">
            {t('esign.preview.send')}
          </Button>
        </DialogActions>
      </Dialog>
    </Container>
  );
};

/** `/esigns/view/1/:packageId` (and `/esigns/preview/:packageId`): a sent package, where its signers are, and what can be done with it. */
export const PackageViewPage = ({ packageId }: { packageId: string }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { userId, data: pkg, error, reload } = usePackage(packageId);
  const [actionError, setActionError] = useState<NormalisedError | null>(null);
  const act = async (call: () => Promise<unknown>) => {
    setActionError(null);
    try {
      await call();
      reload();
    } catch (e) {
      setActionError(toApiError(e).toJSON());
    }
  };
  if (!pkg)
    return (
      <Container sx={{ py: 3 }}>
        {error ? <ErrorAlert error={error} testId="esign-view-error" /> : <CircularProgress aria-label={t('common.loading')} />}
      </Container>
    );
  return (
    <Container maxWidth="md" sx={{ py: 3 }} data-testid="esign-view" data-status={pkg.status}>
      <PackageSummary pkg={pkg} />
      <ErrorAlert error={actionError} testId="esign-view-action-error" />
      <Stack direction="row" sx={{ mt: 2, flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={() => void navigate(pkg.status === 'draft' ? '/esigns/drafts' : pkg.status === 'archived' ? '/esigns/archive' : '/esigns/list')}>
          {t('common.back')}
        </Button>
        <Button component={RouterLink} to={`/esigns/${pkg.status === 'draft' ? 'edit' : 'view'}/2/${pkg.id}`} data-testid="esign-view-fields">
          {t('esign.view.fields')}
        </Button>
        {pkg.status === 'completed' && (
          <Button variant="contained" startIcon={<DownloadOutlined />} href={sealedDocumentUrl(userId, pkg.id)} download data-testid="esign-download">
            {t('esign.list.download')}
          </Button>
        )}
        {(pkg.status === 'awaiting_signatures' || pkg.status === 'completed') && (
          <Button startIcon={<ArchiveOutlined />} onClick={() => void act(() => esignApi.archive(userId, pkg.id))} data-testid="esign-archive">
            {t('esign.list.archive')}
          </Button>
        )}
        {pkg.status === 'archived' && (
          <Button startIcon={<UnarchiveOutlined />} onClick={() => void act(() => esignApi.unarchive(userId, pkg.id))} data-testid="esign-unarchive">
            {t('esign.list.unarchive')}
          </Button>
        )}
      </Stack>
    </Container>
  );
};
