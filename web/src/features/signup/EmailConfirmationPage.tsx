import CheckCircleOutline from '@mui/icons-material/CheckCircleOutlined';
import ErrorOutline from '@mui/icons-material/ErrorOutlined';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { CenteredCard } from '../../components/StatusPage';
import { useOnceCall } from '../../components/useOnceCall';
import { useSession } from '../../session/store';
import { signupApi } from './signup.api';

/** The link of the confirmation mail lands here: POST /email-confirmations/ { token }. */
export const EmailConfirmationPage = () => {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const { user } = useSession();
  const result = useOnceCall(token ? `email-confirmation:${token}` : null, () => signupApi.confirmEmail(token));

  return (
    <CenteredCard testId="email-confirmation" title={t('emailConfirmation.title')}>
      {result.status === 'pending' && (
        <Stack spacing={2} sx={{ alignItems: 'center', py: 2 }}>
          <CircularProgress aria-label={t('common.loading')} />
          <Typography>{t('emailConfirmation.pending')}</Typography>
        </Stack>
      )}
      {result.status === 'done' && (
        <Stack spacing={2} data-testid="email-confirmation-done" sx={{ alignItems: 'center', textAlign: 'center' }}>
          <CheckCircleOutline color="success" sx={{ fontSize: 56 }} />
          <Typography>{t('emailConfirmation.done', { email: result.value.email })}</Typography>
          <Button
            variant="contained"
            component={RouterLink}
            to={user ? '/welcome' : `/signin?${new URLSearchParams({ email: result.value.email }).toString()}`}
            data-testid="email-confirmation-continue"
          >
            {user ? t('common.goHome') : t('common.toSignIn')}
          </Button>
        </Stack>
      )}
      {result.status === 'failed' && (
        <Stack spacing={2} data-testid="email-confirmation-failed" sx={{ alignItems: 'center', textAlign: 'center' }}>
          <ErrorOutline color="error" sx={{ fontSize: 56 }} />
          <ErrorAlert error={result.error} testId="email-confirmation-error" />
          <Button variant="outlined" component={RouterLink} to="/resend" data-testid="email-confirmation-resend">
            {t('emailConfirmation.requestNew')}
          </Button>
        </Stack>
      )}
    </CenteredCard>
  );
};
