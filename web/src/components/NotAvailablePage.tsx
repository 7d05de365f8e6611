import ConstructionOutlined from '@mui/icons-material/ConstructionOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useSession } from '../session/store';
import { CenteredCard } from './StatusPage';

/** One page for every screen that is part of the product but not built yet. */
export const NotAvailableContent = () => {
  const { t } = useTranslation();
  return (
    <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center' }}>
      <ConstructionOutlined color="action" sx={{ fontSize: 56 }} />
      <Typography variant="h5" component="h1">
        {t('notAvailable.title')}
      </Typography>
      <Typography color="text.secondary">{t('notAvailable.body')}</Typography>
    </Stack>
  );
};

export const NotAvailablePage = () => {
  const { t } = useTranslation();
  const { user } = useSession();
  return (
    <CenteredCard testId="not-available">
      <NotAvailableContent />
      <Stack sx={{ alignItems: 'center', mt: 3 }}>
        <Button variant="contained" component={RouterLink} to={user ? '/welcome' : '/signin'} data-testid="not-available-home">
          {t('common.goHome')}
        </Button>
      </Stack>
    </CenteredCard>
  );
};
