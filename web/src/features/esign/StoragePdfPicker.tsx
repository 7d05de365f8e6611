import ArrowUpwardOutlined from '@mui/icons-material/ArrowUpwardOutlined';
import FolderOutlined from '@mui/icons-material/FolderOutlined';
import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useLoad } from '../../components/useLoad';
import { filesApi, isFolder, type Item } from '../files/files.api';
import { isPdf } from './esign.rules';

/** Picks PDFs of the user's own storage, folder by folder; other files are not offered. */
export const StoragePdfPicker = ({
  userId,
  storageId,
  open,
  onClose,
  onPick,
}: {
  userId: string;
  storageId: string | null;
  open: boolean;
  onClose: () => void;
  onPick: (item: Item) => void;
}) => {
  const { t } = useTranslation();
  const [trail, setTrail] = useState<Item[]>([]);
  const folder = trail.at(-1) ?? null;
  const { data, error, loading } = useLoad(
    open && storageId ? () => filesApi.list(userId, storageId, folder?.id ?? null, { page: 1, sortBy: 'name', sortOrder: 'ASC' }) : null,
    [open, storageId, folder?.id],
    { reset: true },
  );
  const shown = (data?.data ?? []).filter((i) => isFolder(i) || isPdf(i));
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" data-testid="esign-picker">
      <DialogTitle>{folder ? folder.name : t('esign.upload.pickTitle')}</DialogTitle>
      <DialogContent dividers>
        <ErrorAlert error={error} testId="esign-picker-error" />
        {loading && <CircularProgress aria-label={t('common.loading')} />}
        <List dense>
          {folder && (
            <ListItemButton onClick={() => setTrail(trail.slice(0, -1))} data-testid="esign-picker-up">
              <ListItemIcon>
                <ArrowUpwardOutlined />
              </ListItemIcon>
              <ListItemText primary={t('common.back')} />
            </ListItemButton>
          )}
          {shown.map((item) => (
            <ListItemButton
              key={item.id}
              data-testid="esign-picker-item"
              data-name={item.name}
              onClick={() => (isFolder(item) ? setTrail([...trail, item]) : onPick(item))}
            >
              <ListItemIcon>{isFolder(item) ? <FolderOutlined /> : <PictureAsPdfOutlined />}</ListItemIcon>
              <ListItemText primary={item.name} slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }} />
            </ListItemButton>
          ))}
        </List>
        {data && shown.length === 0 && <Alert severity="info">{t('esign.upload.noPdfs')}</Alert>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
};
