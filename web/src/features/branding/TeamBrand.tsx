import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useTeamBranding } from './useTeamBranding';

/** The team's logo and name or slogan beside the product's name in the header (members see it too). */
export const TeamBrand = () => {
  const { t } = useTranslation();
  const branding = useTeamBranding();
  if (!branding) return null;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0, ml: 1, pl: 1, borderLeft: 1, borderColor: 'divider' }} data-testid="team-brand">
      {branding.logoUrl && <Box component="img" src={branding.logoUrl} alt={t('branding.logoAlt')} sx={{ height: 28, maxWidth: 96, objectFit: 'contain' }} />}
      {branding.companyName && (
        <Typography variant="body2" noWrap sx={{ display: { xs: 'none', sm: 'block' }, maxWidth: 240 }} data-testid="team-brand-name">
          {branding.companyName}
        </Typography>
      )}
    </Box>
  );
};
