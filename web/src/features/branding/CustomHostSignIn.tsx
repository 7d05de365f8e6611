import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { LanguageSelect } from '../../components/LanguageSelect';
import { CenteredCard } from '../../components/StatusPage';
import { mainHostSignIn } from '../../routing/guard';
import type { HostBranding } from './hostBranding';

/**
 * The sign-in page of a team's custom host: the team's logo and name, and the way on to the main
 * host's sign-in (a session cookie belongs to one host), keeping where the person was going.
 */
export const CustomHostSignIn = ({ branding }: { branding: HostBranding }) => {
  const { t } = useTranslation();
  const { search } = useLocation();
  const name = branding.companyName;
  return (
    <CenteredCard testId="custom-host-signin">
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 1 }}>
        <LanguageSelect />
      </Box>
      <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: 1.5, mb: 3 }}>
        {branding.logoUrl && (
          <Box
            component="img"
            src={branding.logoUrl}
            alt={t('branding.logoAlt')}
            sx={{ maxHeight: 96, maxWidth: '100%', objectFit: 'contain' }}
            data-testid="custom-host-logo"
          />
        )}
        {name && (
          <Typography variant="h5" component="p" sx={{ overflowWrap: 'anywhere' }} data-testid="custom-host-name">
            {name}
          </Typography>
        )}
        <Typography variant="h6" component="h1">
          {t('branding.host.title')}
        </Typography>
        <Typography color="text.secondary">{t('branding.host.explain')}</Typography>
      </Box>
      <Button component="a" href={mainHostSignIn(branding.mainUrl, search)} variant="contained" fullWidth size="large" data-testid="custom-host-continue">
        {t('branding.host.continue')}
      </Button>
      <Box sx={{ mt: 2, textAlign: 'center' }}>
        <Link component={RouterLink} to="/signup" data-testid="custom-host-to-signup">
          {t('signin.noAccount')}
        </Link>
      </Box>
    </CenteredCard>
  );
};

/** On the main host's sign-in page: the person was sent here from their team's own address. */
export const CameFromTeamAddress = () => {
  const { t } = useTranslation();
  return (
    <Alert severity="info" sx={{ mb: 2 }} data-testid="signin-from-custom-host">
      {t('branding.host.cameFrom')}
    </Alert>
  );
};
