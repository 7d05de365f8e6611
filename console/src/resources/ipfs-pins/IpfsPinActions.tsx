import PushPinOutlinedIcon from '@mui/icons-material/PushPinOutlined';
import ReplayIcon from '@mui/icons-material/Replay';
import { Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useState } from 'react';
import { Button, useNotify, usePermissions, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { Features, hasFeature } from '../../auth/access';
import { ipfsPinsApi, UNPIN_REASON_MAX, unpinReason } from './ipfsPinsApi';

const errorText = (error: unknown) => (error instanceof Error && error.message ? error.message : 'ra.notification.http_error');

/** Tries a failed pin again (any staff member but an auditor). */
export const RetryPinButton = () => {
  const record = useRecordContext();
  const notify = useNotify();
  const refresh = useRefresh();
  const { permissions } = usePermissions();
  const [busy, setBusy] = useState(false);
  if (!record || record.status !== 'failed' || (permissions as { role?: string } | undefined)?.role === 'auditor') return null;
  const retry = async () => {
    setBusy(true);
    try {
      const pin = await ipfsPinsApi.retry(record.id);
      notify(`resources.ipfs-pins.notifications.${pin.status === 'pinned' ? 'retried' : 'stillFailing'}`, {
        type: pin.status === 'pinned' ? 'success' : 'warning',
      });
      refresh();
    } catch (error) {
      notify(errorText(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      label="resources.ipfs-pins.actions.retry"
      disabled={busy}
      onClick={(e) => {
        e.stopPropagation();
        void retry();
      }}
      data-testid={`pin-retry-${String(record.id)}`}
    >
      <ReplayIcon />
    </Button>
  );
};

/** Unpins with a reason (recorded with the pin's events); needs the admin:ipfs:unpin feature. */
export const UnpinButton = () => {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const { permissions } = usePermissions();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  if (!record || record.status === 'unpinned' || !hasFeature(permissions, Features.ipfsUnpin)) return null;
  const reason = unpinReason(text);
  const unpin = async () => {
    if (!reason) return;
    setBusy(true);
    try {
      await ipfsPinsApi.unpin(record.id, reason);
      notify('resources.ipfs-pins.notifications.unpinned', { type: 'success' });
      setOpen(false);
      setText('');
      refresh();
    } catch (error) {
      notify(errorText(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button
        label="resources.ipfs-pins.actions.unpin"
        onClick={(e) => {
          e.stopPropagation();
          setOpen(true);
        }}
        data-testid={`pin-unpin-${String(record.id)}`}
      >
        <PushPinOutlinedIcon />
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} onClick={(e) => e.stopPropagation()} fullWidth maxWidth="sm">
        <DialogTitle>{translate('resources.ipfs-pins.unpin.title')}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            multiline
            minRows={2}
            margin="dense"
            label={translate('resources.ipfs-pins.unpin.reason')}
            helperText={translate('resources.ipfs-pins.unpin.help', { max: UNPIN_REASON_MAX })}
            value={text}
            onChange={(e) => setText(e.target.value)}
            slotProps={{ htmlInput: { 'data-testid': 'pin-unpin-reason', maxLength: UNPIN_REASON_MAX + 50 } }}
          />
        </DialogContent>
        <DialogActions>
          <Button label="ra.action.cancel" onClick={() => setOpen(false)} />
          <Button label="resources.ipfs-pins.actions.unpin" disabled={!reason || busy} onClick={() => void unpin()} data-testid="pin-unpin-confirm" />
        </DialogActions>
      </Dialog>
    </>
  );
};
