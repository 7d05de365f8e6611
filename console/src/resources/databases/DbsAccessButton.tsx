import StorageIcon from '@mui/icons-material/Storage';
import { useState } from 'react';
import { Button, Confirm, useNotify, useRefresh, type RaRecord } from 'react-admin';
import { operationsApi } from '../../pages/operations/operationsApi';

/** Activate or cancel the user's database access (staff with the `ddbaas` feature); cancelling asks first. */
export const DbsAccessButton = ({ record }: { record: RaRecord }) => {
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const active = record.hasDbsAccess === true;
  const change = async () => {
    setBusy(true);
    try {
      await operationsApi.dbsAccess(String(record.id), !active);
      notify(active ? 'operations.databases.cancelled' : 'operations.databases.activated', { type: 'success', messageArgs: { email: record.email } });
      refresh();
    } catch (error) {
      notify(error instanceof Error && error.message ? error.message : 'ra.notification.http_error', { type: 'error' });
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };
  return (
    <>
      <Button
        label={active ? 'operations.databases.cancel' : 'operations.databases.activate'}
        disabled={busy}
        onClick={() => (active ? setConfirming(true) : void change())}
        data-testid={active ? 'user-dbs-cancel' : 'user-dbs-activate'}
      >
        <StorageIcon />
      </Button>
      <Confirm
        isOpen={confirming}
        loading={busy}
        title="operations.databases.cancelTitle"
        content="operations.databases.cancelContent"
        translateOptions={{ email: record.email }}
        onConfirm={() => void change()}
        onClose={() => setConfirming(false)}
      />
    </>
  );
};
