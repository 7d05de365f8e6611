import ArrowUpwardOutlined from '@mui/icons-material/ArrowUpwardOutlined';
import FolderOutlined from '@mui/icons-material/FolderOutlined';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useLoad } from '../../components/useLoad';
import { filesApi, isFolder, type Item } from './files.api';
import { alreadyIn } from './move-target';

interface Place {
  id: string | null;
  name: string;
}

/**
 * The copy and move dialog: the user walks the storage's folders and picks where the items go.
 * The chosen items themselves cannot be entered, so nothing is moved into its own child.
 */
export const MoveCopyDialog = ({
  open,
  mode,
  userId,
  storageId,
  rootName,
  items,
  busy,
  error,
  onSubmit,
  onClose,
}: {
  open: boolean;
  mode: 'copy' | 'move';
  userId: string;
  storageId: string;
  rootName: string;
  items: Item[];
  busy: boolean;
  error: NormalisedError | null;
  onSubmit: (destinationId: string | null) => void;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const [path, setPath] = useState<Place[]>([{ id: null, name: rootName }]);
  const here = path[path.length - 1]!;

  useEffect(() => {
    if (open) setPath([{ id: null, name: rootName }]);
  }, [open, rootName]);

  const listed = useLoad(
    open
      ? () => filesApi.list(userId, storageId, here.id, { page: 1, sortBy: 'name', sortOrder: 'ASC', label: 'folder' }).then((p) => p.data.filter(isFolder))
      : null,
    [open, userId, storageId, here.id],
    { reset: true },
  );
  const folders = listed.data ?? null;
  const loadError = listed.error;

  const chosen = new Set(items.map((i) => i.id));
  const nothingToMove = mode === 'move' && alreadyIn(items, here.id);
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" data-testid="move-copy-dialog">
      <DialogTitle>
        {mode === 'copy' ? t('files.moveCopy.copyTitle', { count: items.length }) : t('files.moveCopy.moveTitle', { count: items.length })}
      </DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" data-testid="move-copy-path">
          {path.map((p) => p.name).join(' / ')}
        </Typography>
        {!folders && !loadError && <LinearProgress aria-label={t('common.loading')} />}
        <List dense>
          {path.length > 1 && (
            <ListItemButton onClick={() => setPath(path.slice(0, -1))}>
              <ListItemIcon>
                <ArrowUpwardOutlined fontSize="small" />
              </ListItemIcon>
              <ListItemText primary={t('files.moveCopy.up')} />
            </ListItemButton>
          )}
          {folders?.map((f) => (
            <ListItemButton
              key={f.id}
              disabled={chosen.has(f.id)}
              onClick={() => setPath([...path, { id: f.id, name: f.name }])}
              data-testid="move-copy-folder"
              data-name={f.name}
            >
              <ListItemIcon>
                <FolderOutlined fontSize="small" color="primary" />
              </ListItemIcon>
              <ListItemText primary={f.name} />
            </ListItemButton>
          ))}
          {folders && folders.length === 0 && (
            <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 1 }}>
              {t('files.moveCopy.noFolders')}
            </Typography>
          )}
        </List>
        {nothingToMove && (
          <Typography variant="body2" color="text.secondary" sx={{ px: 2, pt: 1 }} data-testid="move-copy-already-here">
            {t('files.moveCopy.alreadyHere')}
          </Typography>
        )}
        <ErrorAlert error={loadError ?? error} testId="move-copy-error" />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button variant="contained" disabled={busy || nothingToMove} onClick={() => onSubmit(here.id)} data-testid="move-copy-submit">
          {mode === 'copy' ? t('files.moveCopy.copyHere') : t('files.moveCopy.moveHere')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
