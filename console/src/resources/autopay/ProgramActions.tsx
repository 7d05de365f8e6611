import BlockIcon from '@mui/icons-material/Block';
import CancelIcon from '@mui/icons-material/Cancel';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import LockIcon from '@mui/icons-material/Lock';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import ReplayIcon from '@mui/icons-material/Replay';
import SendIcon from '@mui/icons-material/Send';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Tooltip } from '@mui/material';
import { useState, type ReactElement } from 'react';
import { Button, Confirm, EditButton, TopToolbar, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import { autopayApi, type ProgramAction } from './autopayApi';
import { ImportDialog } from './ImportDialog';
import { actionOffers, canEdit } from './programRules';
import { useStaffFeatures } from './useStaffFeatures';

const ICONS: Record<ProgramAction, ReactElement> = {
  submit: <SendIcon />,
  approve: <CheckCircleIcon />,
  reject: <BlockIcon />,
  lock: <LockIcon />,
  unlock: <LockOpenIcon />,
  cancel: <CancelIcon />,
  retry: <ReplayIcon />,
};

const errorMessage = (error: unknown) => (error instanceof Error && error.message ? error.message : 'ra.notification.http_error');

const ActionButton = ({ action, allowed, reason }: { action: ProgramAction; allowed: boolean; reason?: string }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!record) return null;
  const run = async () => {
    setBusy(true);
    try {
      await autopayApi.action(record.id, action);
      notify(`resources.auto-pay.notifications.${action}`, { type: 'success' });
      refresh();
    } catch (error) {
      notify(errorMessage(error), { type: 'error' });
    } finally {
      setBusy(false);
      setOpen(false);
    }
  };
  const button = (
    <span>
      <Button label={`resources.auto-pay.actions.${action}`} disabled={!allowed || busy} onClick={() => setOpen(true)} data-testid={`autopay-${action}`}>
        {ICONS[action]}
      </Button>
    </span>
  );
  return (
    <>
      {reason ? <Tooltip title={translate(`resources.auto-pay.refusals.${reason}`)}>{button}</Tooltip> : button}
      <Confirm
        isOpen={open}
        loading={busy}
        title={`resources.auto-pay.confirm.${action}Title`}
        content={`resources.auto-pay.confirm.${action}Content`}
        translateOptions={{ name: String(record.name ?? '') }}
        titleTranslateOptions={{ name: String(record.name ?? '') }}
        onConfirm={() => void run()}
        onClose={() => setOpen(false)}
      />
    </>
  );
};

const ExportButton = () => {
  const record = useRecordContext();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  if (!record) return null;
  const download = async () => {
    setBusy(true);
    try {
      const blob = await autopayApi.exportCsv(record.id);
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = `${String(record.name ?? 'auto-pay').replace(/[^\w.-]+/g, '_')}-payees.csv`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (error) {
      notify(errorMessage(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button label="resources.auto-pay.actions.export" disabled={busy} onClick={() => void download()} data-testid="autopay-export">
      <FileDownloadIcon />
    </Button>
  );
};

/** The program's toolbar: edit and import while it can change, export always, and the actions its status and the staff member allow. */
export const ProgramShowActions = () => {
  const record = useRecordContext();
  const staff = useStaffFeatures();
  const [params, setParams] = useSearchParams();
  const importOpen = params.get('import') === '1';
  if (!record) return null;
  const offers = actionOffers(record, staff);
  const editable = canEdit(record, staff);
  return (
    <TopToolbar sx={{ flexWrap: 'wrap' }}>
      {editable && <EditButton data-testid="autopay-edit" />}
      {editable && (
        <Button label="resources.auto-pay.actions.import" onClick={() => setParams({ import: '1' })} data-testid="autopay-import">
          <UploadFileIcon />
        </Button>
      )}
      <ExportButton />
      {offers.map((o) => (
        <ActionButton key={o.action} action={o.action} allowed={o.allowed} reason={o.reason} />
      ))}
      <ImportDialog programId={record.id} open={importOpen && editable} onClose={() => setParams({})} />
    </TopToolbar>
  );
};
