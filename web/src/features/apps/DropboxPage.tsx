import CreateNewFolderOutlined from '@mui/icons-material/CreateNewFolderOutlined';
import FolderOutlined from '@mui/icons-material/FolderOutlined';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink, useNavigate, useParams } from 'react-router';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useLoad } from '../../components/useLoad';
import { useSession } from '../../session/store';
import { ancestorsOf, appsApi, dropboxPathOf, subPathOf, type DropboxEntry } from './apps.api';

const toRoute = (dropboxPath: string) => (dropboxPath ? `/files/dropbox/${encodeURIComponent(subPathOf(dropboxPath))}` : '/files/dropbox');
const byName = (a: DropboxEntry, b: DropboxEntry) => (a['.tag'] === b['.tag'] ? a.name.localeCompare(b.name) : a['.tag'] === 'folder' ? -1 : 1);

/** files/dropbox/:subPath?: the user's Dropbox, folders first by name; open, preview, create folders, import into the storage. */
export const DropboxPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const userId = user?.id ?? null;
  const { subPath } = useParams();
  const path = dropboxPathOf(subPath ? decodeURIComponent(subPath) : undefined);
  const apps = useLoad(userId ? () => appsApi.list(userId) : null, [userId]);
  const dropbox = apps.data?.find((a) => a.app === 'dropbox');
  const connected = dropbox?.connected ?? false;
  const listing = useLoad(userId && connected ? (signal) => appsApi.listFolder(path, signal) : null, [userId, connected, path], { reset: true });
  const [failure, setFailure] = useState<NormalisedError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [folderDialog, setFolderDialog] = useState(false);
  const [folderName, setFolderName] = useState('');

  const act = async (key: string, action: () => Promise<void>) => {
    setBusy(key);
    setFailure(null);
    setNotice(null);
    try {
      await action();
    } catch (e) {
      setFailure(toApiError(e).toJSON());
    } finally {
      setBusy(null);
    }
  };

  // spec §4: without the app (plan or team), the page is left for welcome
  if ((user && !user.isAppVisible) || (dropbox && dropbox.configured && !dropbox.allowed)) return <Navigate to="/welcome" replace />;
  if (apps.loading && !apps.data) return <LinearProgress />;
  if (dropbox && !dropbox.configured) {
    return (
      <Container maxWidth="md" sx={{ py: 3 }}>
        <Alert severity="info">{t('apps.notConfigured')}</Alert>
      </Container>
    );
  }

  return (
    <Container maxWidth="lg" sx={{ py: 3 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 2 }}>
        <Typography variant="h4" component="h1">
          {t('apps.names.dropbox')}
        </Typography>
        {connected && (
          <Button startIcon={<CreateNewFolderOutlined />} variant="outlined" onClick={() => setFolderDialog(true)}>
            {t('apps.dropbox.newFolder')}
          </Button>
        )}
      </Stack>
      <ErrorAlert error={apps.error ?? listing.error ?? failure} />
      {notice && (
        <Alert severity="success" data-testid="dropbox-notice" sx={{ mb: 2 }}>
          {notice}
        </Alert>
      )}
      {!connected && dropbox && (
        <Paper sx={{ p: 3 }}>
          <Typography sx={{ mb: 2 }}>{t('apps.about.dropbox')}</Typography>
          <Button
            variant="contained"
            disabled={busy !== null}
            onClick={() => act('connect', async () => window.location.assign((await appsApi.dropboxAuthorize(userId!)).url))}
          >
            {t('apps.dropbox.connect')}
          </Button>
        </Paper>
      )}
      {connected && (
        <Paper>
          <Breadcrumbs sx={{ px: 2, pt: 2, overflowWrap: 'anywhere' }}>
            <Link component={RouterLink} to="/files/dropbox">
              {t('apps.names.dropbox')}
            </Link>
            {ancestorsOf(path).map((a) => (
              <Link key={a.path} component={RouterLink} to={toRoute(a.path)}>
                {a.name}
              </Link>
            ))}
            {path && <Typography color="text.primary">{path.split('/').pop()}</Typography>}
          </Breadcrumbs>
          {(listing.loading || busy) && <LinearProgress sx={{ mt: 1 }} />}
          <List data-testid="dropbox-entries">
            {listing.data?.length === 0 && (
              <ListItem>
                <ListItemText primary={t('apps.dropbox.empty')} />
              </ListItem>
            )}
            {[...(listing.data ?? [])].sort(byName).map((entry) =>
              entry['.tag'] === 'folder' ? (
                <ListItemButton key={entry.id} onClick={() => navigate(toRoute(entry.path_display))} data-testid="dropbox-folder">
                  <ListItemIcon>
                    <FolderOutlined />
                  </ListItemIcon>
                  <ListItemText primary={entry.name} slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }} />
                </ListItemButton>
              ) : (
                <ListItem key={entry.id} data-testid="dropbox-file" sx={{ flexWrap: 'wrap', gap: 1 }}>
                  <ListItemIcon>
                    <InsertDriveFileOutlined />
                  </ListItemIcon>
                  <ListItemText
                    primary={entry.name}
                    secondary={entry.size !== undefined ? t('apps.dropbox.size', { size: entry.size }) : undefined}
                    slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
                    sx={{ minWidth: 160 }}
                  />
                  <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
                    <Button
                      size="small"
                      disabled={busy !== null}
                      onClick={() =>
                        act(`preview:${entry.id}`, async () => {
                          const { link } = await appsApi.temporaryLink(entry.path_lower);
                          window.open(link, '_blank', 'noopener');
                        })
                      }
                    >
                      {t('apps.dropbox.open')}
                    </Button>
                    <Button
                      size="small"
                      variant="outlined"
                      disabled={busy !== null}
                      onClick={() =>
                        act(`import:${entry.id}`, async () => {
                          const item = await appsApi.importFile(userId!, entry.path_lower);
                          setNotice(t('apps.dropbox.imported', { name: item.name }));
                        })
                      }
                    >
                      {t('apps.dropbox.import')}
                    </Button>
                  </Box>
                </ListItem>
              ),
            )}
          </List>
        </Paper>
      )}
      <Dialog open={folderDialog} onClose={() => setFolderDialog(false)} fullWidth maxWidth="xs">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const name = folderName.trim();
            if (!name) return;
            void act('folder', async () => {
              await appsApi.createFolder(`${path}/${name}`);
              setFolderDialog(false);
              setFolderName('');
              listing.reload();
            });
          }}
        >
          <DialogTitle>{t('apps.dropbox.newFolder')}</DialogTitle>
          <DialogContent>
            <TextField
              autoFocus
              fullWidth
              margin="dense"
              label={t('apps.dropbox.folderName')}
              value={folderName}
              onChange={(e) => setFolderName(e.target.value)}
              slotProps={{ htmlInput: { maxLength: 255 } }}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setFolderDialog(false)}>{t('apps.cancel')}</Button>
            <Button type="submit" variant="contained" disabled={!folderName.trim() || busy !== null}>
              {t('apps.dropbox.create')}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </Container>
  );
};
