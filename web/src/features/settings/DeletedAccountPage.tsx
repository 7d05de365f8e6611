import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { toApiError } from '../../api/errors';
import { CenteredCard } from '../../components/StatusPage';
import { useLoad } from '../../components/useLoad';
import { ACCOUNT_DELETED_REASON } from '../../routing/guard';
import { sessionApi } from '../../session/session.api';
import { sessionStore, useSession } from '../../session/store';

type Check = 'checking' | 'gone' | 'active';

/**
 * Where a deleted account ends up. A visitor the app still believes signed in (another tab, a
 * deletion by staff) is checked with the server: deletion ends every session of the account, so a
 * refused session means the account is gone and its data leaves the screen.
 */
export const DeletedAccountPage = () => {
  const { t } = useTranslation();
  const { user } = useSession();
  const userId = user?.id ?? null;
  const checked = useLoad(
    userId
      ? (signal) =>
          sessionApi.current().then(
            ({ user: current }): Check => {
              if (!signal.aborted) sessionStore.signedIn(current);
              return 'active';
            },
            (e: unknown): Check => {
              const error = toApiError(e);
              if (error.status !== 401 && error.status !== 410) return 'active';
              if (!signal.aborted) sessionStore.signedOut(ACCOUNT_DELETED_REASON);
              return 'gone';
            },
          )
      : null,
    [userId],
    { reset: true },
  );
  const check: Check = userId ? (checked.data ?? 'checking') : 'gone';

  if (check === 'checking') {
    return (
      <CenteredCard title={t('deletedAccount.title')} testId="deleted-account-checking">
        <Stack sx={{ alignItems: 'center', py: 2 }}>
          <CircularProgress aria-label={t('common.loading')} />
        </Stack>
      </CenteredCard>
    );
  }

  if (check === 'active' && user) {
    return (
      <CenteredCard title={t('deletedAccount.activeTitle')} testId="deleted-account-active">
        <Stack spacing={2}>
          <Typography>{t('deletedAccount.active', { email: user.email })}</Typography>
          <Stack direction="row" spacing={2}>
            <Button variant="contained" component={RouterLink} to="/welcome">
              {t('common.goHome')}
            </Button>
          </Stack>
        </Stack>
      </CenteredCard>
    );
  }

  return (
    <CenteredCard title={t('deletedAccount.title')} testId="deleted-account">
      <Stack spacing={2}>
        <Typography>{t('deletedAccount.body')}</Typography>
        <Stack direction="row" spacing={2}>
          <Button variant="contained" component={RouterLink} to="/signup" data-testid="deleted-account-signup">
            {t('deletedAccount.signUp')}
          </Button>
          <Button component={RouterLink} to="/signin">
            {t('common.toSignIn')}
          </Button>
        </Stack>
      </Stack>
    </CenteredCard>
  );
};
