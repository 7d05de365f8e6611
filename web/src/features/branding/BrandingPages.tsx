import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useLoad } from '../../components/useLoad';
import { useSession } from '../../session/store';
import { MembersTabs } from '../members/MembersTabs';
import { brandingApi, LOGO_MAX_BYTES, LOGO_TYPES, subdomainProblem, type TeamBranding } from './branding.api';
import { brandingChanged } from './useTeamBranding';

/** A local problem in the spec's words, shown before anything is sent. */
const localError = (code: string, message: string): NormalisedError => ({ code, message, data: null, status: 400 }) as NormalisedError;

/** Loads the team's branding and says why the page cannot be used when it cannot. */
const useManagedBranding = (feature: 'branding' | 'customUrl') => {
  const { user } = useSession();
  const load = useLoad(user ? () => brandingApi.mine(user.id) : null, [user?.id]);
  const [branding, setBranding] = useState<TeamBranding | undefined>();
  useEffect(() => setBranding(load.data), [load.data]);
  const blocked: 'notManager' | 'plan' | null = !branding
    ? null
    : !branding.teamId || !branding.canManage
      ? 'notManager'
      : (feature === 'branding' ? !branding.brandingAllowed : !branding.customUrlAllowed)
        ? 'plan'
        : null;
  const update = (next: TeamBranding) => {
    setBranding((b) => (b ? { ...b, ...next, canManage: b.canManage, brandingAllowed: b.brandingAllowed, customUrlAllowed: b.customUrlAllowed } : b));
    brandingChanged();
  };
  return { branding, loading: load.loading, error: load.error, blocked, update };
};

const Blocked = ({ reason }: { reason: 'notManager' | 'plan' }) => {
  const { t } = useTranslation();
  return (
    <Alert
      severity="info"
      data-testid={`branding-blocked-${reason}`}
      action={
        reason === 'plan' ? (
          <Button component={RouterLink} to="/storages/plans" color="inherit" size="small">
            {t('branding.seePlans')}
          </Button>
        ) : undefined
      }
    >
      {t(`branding.blocked.${reason}`)}
    </Alert>
  );
};

/** members/branding: the company name or slogan and the logo members see in the header (spec §6). */
export const BrandingPage = () => {
  const { t } = useTranslation();
  const { branding, loading, error, blocked, update } = useManagedBranding('branding');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<NormalisedError | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  useEffect(() => setName(branding?.companyName ?? ''), [branding?.companyName]);

  const run = async (work: () => Promise<TeamBranding>, done: string) => {
    setBusy(true);
    setFailure(null);
    setSaved(null);
    try {
      update(await work());
      setSaved(done);
    } catch (e) {
      setFailure(toApiError(e).toJSON());
    } finally {
      setBusy(false);
    }
  };
  const pickLogo = (file: File | undefined) => {
    if (!file || !branding?.teamId) return;
    if (!(LOGO_TYPES as readonly string[]).includes(file.type)) return setFailure(localError('LOGO_INVALID', t('errors.LOGO_INVALID')));
    if (file.size > LOGO_MAX_BYTES) return setFailure(localError('LOGO_TOO_LARGE', t('errors.LOGO_TOO_LARGE')));
    void run(() => brandingApi.uploadLogo(branding.teamId!, file), t('branding.logoSaved'));
  };

  return (
    <Container maxWidth="md" sx={{ py: 3 }} data-testid="branding-page">
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {t('members.title')}
      </Typography>
      <MembersTabs current="branding" />
      {loading && <LinearProgress />}
      <ErrorAlert error={error} />
      {blocked && <Blocked reason={blocked} />}
      {branding && !blocked && (
        <Stack spacing={2}>
          <Paper variant="outlined" sx={{ p: 2 }}>
            <Typography variant="subtitle1" component="h2">
              {t('branding.nameTitle')}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {t('branding.nameHelp')}
            </Typography>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
              <TextField
                label={t('branding.name')}
                value={name}
                onChange={(e) => setName(e.target.value)}
                slotProps={{ htmlInput: { maxLength: 255, 'data-testid': 'branding-name' } }}
                helperText={t('branding.nameLimit', { count: name.length })}
                fullWidth
              />
              <Button
                variant="contained"
                disabled={busy}
                onClick={() => void run(() => brandingApi.setName(branding.teamId!, name.trim() || null), t('branding.nameSaved'))}
                data-testid="branding-name-save"
                sx={{ flexShrink: 0, mt: { sm: 1 } }}
              >
                {t('branding.save')}
              </Button>
            </Stack>
          </Paper>
          <Paper variant="outlined" sx={{ p: 2 }}>
            <Typography variant="subtitle1" component="h2">
              {t('branding.logoTitle')}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {t('branding.logoHelp')}
            </Typography>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
              <Box
                sx={{ width: 160, height: 80, border: 1, borderColor: 'divider', borderRadius: 1, display: 'grid', placeItems: 'center', overflow: 'hidden' }}
                data-testid="branding-logo-preview"
              >
                {branding.logoUrl ? (
                  <Box component="img" src={branding.logoUrl} alt={t('branding.logoAlt')} sx={{ maxWidth: '100%', maxHeight: '100%' }} />
                ) : (
                  <Typography variant="caption" color="text.secondary">
                    {t('branding.noLogo')}
                  </Typography>
                )}
              </Box>
              <Button variant="outlined" component="label" disabled={busy} data-testid="branding-logo-pick">
                {t('branding.chooseLogo')}
                <input
                  hidden
                  type="file"
                  accept={LOGO_TYPES.join(',')}
                  data-testid="branding-logo-input"
                  onChange={(e) => {
                    pickLogo(e.target.files?.[0]);
                    e.target.value = '';
                  }}
                />
              </Button>
              {branding.logoUrl && (
                <Button
                  color="error"
                  disabled={busy}
                  onClick={() => void run(() => brandingApi.removeLogo(branding.teamId!), t('branding.logoRemoved'))}
                  data-testid="branding-logo-remove"
                >
                  {t('branding.removeLogo')}
                </Button>
              )}
            </Stack>
          </Paper>
          {busy && <LinearProgress />}
          <ErrorAlert error={failure} testId="branding-error" />
          {saved && (
            <Alert severity="success" data-testid="branding-saved">
              {saved}
            </Alert>
          )}
        </Stack>
      )}
    </Container>
  );
};

/** members/custom-url: the team's own address, `<subdomain>.<domain>` (spec §5, §8). */
export const CustomUrlPage = () => {
  const { t } = useTranslation();
  const { branding, loading, error, blocked, update } = useManagedBranding('customUrl');
  const [subdomain, setSubdomain] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<NormalisedError | null>(null);
  useEffect(() => setSubdomain(branding?.subdomain ?? ''), [branding?.subdomain]);
  const problem = subdomainProblem(subdomain);

  const run = async (work: () => Promise<TeamBranding>) => {
    setBusy(true);
    setFailure(null);
    try {
      update(await work());
      setTouched(false);
    } catch (e) {
      setFailure(toApiError(e).toJSON());
    } finally {
      setBusy(false);
    }
  };

  return (
    <Container maxWidth="md" sx={{ py: 3 }} data-testid="custom-url-page">
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {t('members.title')}
      </Typography>
      <MembersTabs current="custom-url" />
      {loading && <LinearProgress />}
      <ErrorAlert error={error} />
      {blocked && <Blocked reason={blocked} />}
      {branding && !blocked && (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Typography variant="subtitle1" component="h2">
            {t('branding.customUrlTitle')}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {t('branding.customUrlHelp')}
          </Typography>
          {branding.customUrl && (
            <Alert severity="success" sx={{ mb: 2, wordBreak: 'break-all' }} data-testid="custom-url-current">
              {t('branding.customUrlCurrent')}{' '}
              <a href={branding.customUrl} target="_blank" rel="noreferrer">
                {branding.customUrl}
              </a>
            </Alert>
          )}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
            <TextField
              label={t('branding.subdomain')}
              value={subdomain}
              onChange={(e) => {
                setSubdomain(e.target.value);
                setTouched(true);
              }}
              error={touched && problem !== null}
              helperText={
                touched && problem ? t(`branding.subdomainProblem.${problem}`) : `${subdomain.trim().toLowerCase() || '…'}.${branding.customUrlDomain}`
              }
              slotProps={{ htmlInput: { maxLength: 63, 'data-testid': 'custom-url-input', autoCapitalize: 'none', spellCheck: false } }}
              fullWidth
            />
            <Button
              variant="contained"
              disabled={busy || problem !== null}
              onClick={() => void run(() => brandingApi.setCustomUrl(branding.teamId!, subdomain))}
              data-testid="custom-url-save"
              sx={{ flexShrink: 0, mt: { sm: 1 } }}
            >
              {t('branding.save')}
            </Button>
            {branding.subdomain && (
              <Button
                color="error"
                disabled={busy}
                onClick={() => void run(() => brandingApi.removeCustomUrl(branding.teamId!))}
                data-testid="custom-url-remove"
                sx={{ flexShrink: 0, mt: { sm: 1 } }}
              >
                {t('branding.remove')}
              </Button>
            )}
          </Stack>
          {busy && <LinearProgress sx={{ mt: 2 }} />}
          <ErrorAlert error={failure} testId="custom-url-error" />
        </Paper>
      )}
    </Container>
  );
};
