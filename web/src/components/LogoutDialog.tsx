import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { logout } from '../session/session';

export const LogoutDialog = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    setBusy(true);
    await logout();
    setBusy(false);
    onClose();
    void navigate('/signin', { replace: true });
  };

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="logout-title" data-testid="logout-dialog">
      <DialogTitle id="logout-title">{t('logout.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('logout.body')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy} data-testid="logout-cancel">
          {t('common.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void confirm()} disabled={busy} data-testid="logout-confirm">
          {t('logout.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
