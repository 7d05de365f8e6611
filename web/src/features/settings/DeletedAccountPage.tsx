import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { toApiError } from '../../api/errors';
import { CenteredCard } from '../../components/StatusPage';
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
  const [check, setCheck] = useState<Check>(user ? 'checking' : 'gone');
  const userId = user?.id ?? null;

  useEffect(() => {
    if (!userId) {
      setCheck('gone');
      return;
    }
    let live = true;
    setCheck('checking');
    sessionApi.current().then(
      ({ user: current }) => {
        if (!live) return;
        sessionStore.signedIn(current);
        setCheck('active');
      },
      (e: unknown) => {
        if (!live) return;
        const error = toApiError(e);
        if (error.status === 401 || error.status === 410) {
          sessionStore.signedOut(ACCOUNT_DELETED_REASON);
          setCheck('gone');
        } else {
          setCheck('active');
        }
      },
    );
    return () => {
      live = false;
    };
  }, [userId]);

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
