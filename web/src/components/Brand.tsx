import LockOutlined from '@mui/icons-material/LockOutlined';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

export const Brand = ({ to = '/' }: { to?: string }) => {
  const { t } = useTranslation();
  return (
    <Stack
      direction="row"
      spacing={1}
      component={RouterLink}
      to={to}
      sx={{ alignItems: 'center', color: 'inherit', textDecoration: 'none' }}
      aria-label={t('app.home')}
    >
      <LockOutlined />
      <Typography variant="h6" component="span" noWrap>
        {t('app.name')}
      </Typography>
    </Stack>
  );
};
