import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { confirmsDelete, DELETE_WORD } from './devices.validation';

/** A destructive action on a CloudLocker: the button works once `delete` is typed (spec §5). */
export const ConfirmTypedDialog = ({
  open,
  title,
  body,
  action,
  busy,
  error,
  onClose,
  onConfirm,
}: {
  open: boolean;
  title: string;
  body: string;
  action: string;
  busy: boolean;
  error: NormalisedError | null;
  onClose: () => void;
  onConfirm: (typed: string) => void;
}) => {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const close = () => {
    setTyped('');
    onClose();
  };
  return (
    <Dialog open={open} onClose={busy ? undefined : close} fullWidth maxWidth="xs" data-testid="drive-confirm-dialog">
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{body}</DialogContentText>
        <TextField
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          label={t('devices.confirm.typeWord', { word: DELETE_WORD })}
          fullWidth
          autoComplete="off"
          slotProps={{ htmlInput: { 'data-testid': 'drive-confirm-typed' } }}
        />
        <ErrorAlert error={error} testId="drive-confirm-error" />
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={busy}>
          {t('common.cancel')}
        </Button>
        <Button variant="contained" color="error" disabled={busy || !confirmsDelete(typed)} onClick={() => onConfirm(typed)} data-testid="drive-confirm-submit">
          {action}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
