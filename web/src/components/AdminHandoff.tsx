import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { appConfig } from '../app/config';
import { CenteredCard } from './StatusPage';

/**
 * /admin/* belongs to the staff console, a separate app on the same origin: hand over with a full
 * page load. If this document itself was served for that admin path, the console is not deployed
 * here and reloading would loop, so say so instead.
 */
export const AdminHandoff = () => {
  const { t } = useTranslation();
  const location = useLocation();
  const target = `${location.pathname}${location.search}${location.hash}`;
  const servedHere = appConfig.bootPath === location.pathname;

  useEffect(() => {
    if (!servedHere) window.location.assign(target);
  }, [servedHere, target]);

  return (
    <CenteredCard testId="admin-handoff">
      {servedHere ? (
        <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center' }}>
          <Typography>{t('admin.unavailable')}</Typography>
          <Button variant="contained" component={RouterLink} to="/welcome">
            {t('common.goHome')}
          </Button>
        </Stack>
      ) : (
        <Stack spacing={2} sx={{ alignItems: 'center' }}>
          <CircularProgress aria-label={t('admin.opening')} />
          <Typography>{t('admin.opening')}</Typography>
        </Stack>
      )}
    </CenteredCard>
  );
};
