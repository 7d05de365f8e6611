import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { CenteredCard } from './StatusPage';

export const NotFoundPage = () => {
  const { t } = useTranslation();
  return (
    <CenteredCard testId="not-found">
      <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center' }}>
        <Typography variant="h2" component="p" color="text.secondary">
          404
        </Typography>
        <Typography variant="h5" component="h1">
          {t('notFound.title')}
        </Typography>
        <Typography color="text.secondary">{t('notFound.body')}</Typography>
        <Button variant="contained" component={RouterLink} to="/" data-testid="go-home">
          {t('common.goHome')}
        </Button>
      </Stack>
    </CenteredCard>
  );
};
