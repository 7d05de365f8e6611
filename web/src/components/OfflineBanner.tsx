import Alert from '@mui/material/Alert';
import { useTranslation } from 'react-i18next';

export const OfflineBanner = () => {
  const { t } = useTranslation();
  return (
    <Alert
      severity="warning"
      role="status"
      data-testid="offline-banner"
      sx={{ borderRadius: 0, position: 'sticky', top: 0, zIndex: (theme) => theme.zIndex.appBar + 1 }}
    >
      {t('offline.banner')}
    </Alert>
  );
};
