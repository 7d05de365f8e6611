import FolderOffOutlined from '@mui/icons-material/FolderOffOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { CenteredCard } from '../../components/StatusPage';

/**
 * A files address whose storage is none of the reader's (a mistyped id, or someone else's storage):
 * said plainly, with the way to one's own files, rather than opening another storage in its place.
 */
export const StorageNotFound = () => {
  const { t } = useTranslation();
  return (
    <CenteredCard testId="storage-not-found">
      <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center' }}>
        <FolderOffOutlined color="action" sx={{ fontSize: 56 }} />
        <Typography variant="h5" component="h1">
          {t('files.storageNotFound.title')}
        </Typography>
        <Typography color="text.secondary">{t('files.storageNotFound.body')}</Typography>
        <Button variant="contained" component={RouterLink} to="/files/storage" data-testid="storage-not-found-own">
          {t('files.storageNotFound.own')}
        </Button>
      </Stack>
    </CenteredCard>
  );
};
