import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { CenteredCard } from '../../components/StatusPage';

export const DeletedAccountPage = () => {
  const { t } = useTranslation();
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
