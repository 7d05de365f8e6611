import CheckCircleOutline from '@mui/icons-material/CheckCircleOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { isRejectedLinkToken } from '../../api/links';
import { ErrorAlert } from '../../components/ErrorAlert';
import { CenteredCard } from '../../components/StatusPage';
import { useOnceCall } from '../../components/useOnceCall';
import { sessionStore, useSession } from '../../session/store';
import { settingsApi } from './settings.api';

/** The link mailed to a new address lands here: POST /change-email-confirmations/:token. */
export const ChangeEmailConfirmationPage = () => {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const { user } = useSession();
  const result = useOnceCall(token ? `change-email:${token}` : null, () => settingsApi.confirmEmailChange(token));
  const confirmedEmail = result.status === 'done' ? result.value.email : null;

  useEffect(() => {
    if (confirmedEmail && user && user.email !== confirmedEmail) sessionStore.updateUser({ email: confirmedEmail });
  }, [confirmedEmail, user]);

  return (
    <CenteredCard title={t('changeEmail.title')} testId="change-email-confirmation">
      {result.status === 'pending' && (
        <Stack spacing={2} sx={{ alignItems: 'center', py: 2 }}>
          <CircularProgress aria-label={t('common.loading')} />
        </Stack>
      )}
      {result.status === 'done' && (
        <Stack spacing={2} data-testid="change-email-done" sx={{ alignItems: 'center', textAlign: 'center' }}>
          <CheckCircleOutline color="success" sx={{ fontSize: 56 }} />
          <Typography>{t('changeEmail.done', { email: result.value.email })}</Typography>
          <Button variant="contained" component={RouterLink} to={user ? '/welcome' : '/signin'}>
            {user ? t('common.goHome') : t('common.toSignIn')}
          </Button>
        </Stack>
      )}
      {result.status === 'failed' && (
        <Stack spacing={2} data-testid="change-email-failed">
          {isRejectedLinkToken(result.error) ? (
            <Alert severity="error" role="alert" data-testid="change-email-link-invalid">
              {t('changeEmail.linkInvalid')}
            </Alert>
          ) : (
            <ErrorAlert error={result.error} testId="change-email-error" />
          )}
          <Button variant="outlined" component={RouterLink} to={user ? '/settings?tab=account' : '/signin'}>
            {user ? t('changeEmail.toSettings') : t('common.toSignIn')}
          </Button>
        </Stack>
      )}
    </CenteredCard>
  );
};
