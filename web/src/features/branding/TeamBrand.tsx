import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useHostBranding } from './hostBranding';
import { useTeamBranding } from './useTeamBranding';

export interface BrandMarkProps {
  companyName: string | null;
  logoUrl: string | null;
  testId: string;
  /** Keep the name on a phone too (the header of a share page has room for it). */
  nameOnPhone?: boolean;
  /** Set off by a line from the product's name before it (in the app's header bar). */
  divided?: boolean;
}

/** A team's logo and name or slogan. */
export const BrandMark = ({ companyName, logoUrl, testId, nameOnPhone = false, divided = true }: BrandMarkProps) => {
  const { t } = useTranslation();
  if (!companyName && !logoUrl) return null;
  return (
    <Box
      sx={[{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }, divided && { ml: 1, pl: 1, borderLeft: 1, borderColor: 'divider' }]}
      data-testid={testId}
    >
      {logoUrl && <Box component="img" src={logoUrl} alt={t('branding.logoAlt')} sx={{ height: 28, maxWidth: 96, objectFit: 'contain', flexShrink: 0 }} />}
      {companyName && (
        <Typography
          variant="body2"
          noWrap
          sx={{ display: nameOnPhone ? 'block' : { xs: 'none', sm: 'block' }, maxWidth: 240, minWidth: 0 }}
          data-testid={`${testId}-name`}
        >
          {companyName}
        </Typography>
      )}
    </Box>
  );
};

/** The team's logo and name or slogan beside the product's name in the header (members see it too). */
export const TeamBrand = () => {
  const branding = useTeamBranding();
  if (!branding) return null;
  return <BrandMark companyName={branding.companyName} logoUrl={branding.logoUrl} testId="team-brand" />;
};

/** On a team's custom host: its logo and name in the header of the pages a visitor sees. */
export const HostBrand = () => {
  const host = useHostBranding();
  if (host.status !== 'ready' || !host.branding) return null;
  return <BrandMark companyName={host.branding.companyName} logoUrl={host.branding.logoUrl} testId="host-brand" />;
};
