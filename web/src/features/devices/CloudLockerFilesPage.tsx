import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import LinearProgress from '@mui/material/LinearProgress';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useLoad } from '../../components/useLoad';
import { useSession } from '../../session/store';
import { FileBrowserPage } from '../files/FileBrowserPage';
import { devicesApi } from './devices.api';

/** Not one of the user's CloudLockers (or not a CloudLocker id at all). */
const NOT_FOUND_CODES = new Set(['CLOUDLOCKER_NOT_FOUND', 'VALIDATION_FAILED']);

/**
 * files/cloudlocker/:driveId/:id? (spec §2): the bound device's storage, a storage like any other,
 * opened in the file browser; its folders keep this route.
 */
export const CloudLockerFilesPage = () => {
  const { t } = useTranslation();
  const { user } = useSession();
  const { driveId } = useParams();
  const loaded = useLoad(user && driveId ? () => devicesApi.drive(user.id, driveId) : null, [user?.id, driveId]);
  if (!user || !driveId) return null;
  const drive = loaded.data?.id === driveId ? loaded.data : undefined;
  if (loaded.error) {
    return (
      <Container sx={{ py: 4 }} data-testid="cloudlocker-missing">
        {NOT_FOUND_CODES.has(loaded.error.code) ? <Alert severity="warning">{t('devices.files.notFound')}</Alert> : <ErrorAlert error={loaded.error} />}
        <Button component={RouterLink} to="/settings?tab=cloudlockers" sx={{ mt: 2 }}>
          {t('devices.files.manage')}
        </Button>
      </Container>
    );
  }
  if (!drive) return <LinearProgress aria-label={t('common.loading')} />;
  if (!drive.storageId) {
    return (
      <Container sx={{ py: 4 }} data-testid="cloudlocker-missing">
        <Alert severity="info">{t('devices.files.notBound')}</Alert>
      </Container>
    );
  }
  return (
    <FileBrowserPage
      key={drive.storageId}
      route={{
        storageId: drive.storageId,
        basePath: `/files/cloudlocker/${encodeURIComponent(drive.id)}`,
        name: t('devices.files.rootName', { serial: drive.serial }),
      }}
    />
  );
};
