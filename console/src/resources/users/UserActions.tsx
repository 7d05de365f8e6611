import BlockIcon from '@mui/icons-material/Block';
import LockResetIcon from '@mui/icons-material/LockReset';
import PauseCircleIcon from '@mui/icons-material/PauseCircle';
import PlayCircleIcon from '@mui/icons-material/PlayCircle';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import { useState, type ReactElement } from 'react';
import {
  Button,
  Confirm,
  DeleteWithConfirmButton,
  TopToolbar,
  useDataProvider,
  useGetIdentity,
  useNotify,
  usePermissions,
  useRecordContext,
  useRefresh,
  type RaRecord,
} from 'react-admin';
import { Features, hasFeature } from '../../auth/access';
import type { ConsoleDataProvider, UserAction } from '../../data/dataProvider';
import { isBlocked, isSuspended } from './userValues';

const errorMessage = (error: unknown) => (error instanceof Error && error.message ? error.message : 'ra.notification.http_error');

/** Runs one staff action, then tells how it went: the success text, or the server's message. */
const useStaffAction = () => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<unknown>, success: string, messageArgs?: Record<string, unknown>) => {
    setBusy(true);
    try {
      await work();
      notify(success, { type: 'success', messageArgs });
      refresh();
    } catch (error) {
      notify(errorMessage(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return { dataProvider, busy, run };
};

interface ActionButtonProps {
  readonly record: RaRecord;
  readonly action: UserAction;
  readonly icon: ReactElement;
  /** Asks first when the action locks the user out. */
  readonly confirm?: { readonly title: string; readonly content: string };
}

const UserActionButton = ({ record, action, icon, confirm }: ActionButtonProps) => {
  const { dataProvider, busy, run } = useStaffAction();
  const [open, setOpen] = useState(false);
  const execute = () => run(() => dataProvider.userAction(record.id, action), `resources.users.notifications.${action}`);
  return (
    <>
      <Button
        label={`resources.users.actions.${action}`}
        disabled={busy}
        onClick={() => (confirm ? setOpen(true) : void execute())}
        data-testid={`user-${action}`}
      >
        {icon}
      </Button>
      {confirm ? (
        <Confirm
          isOpen={open}
          loading={busy}
          title={confirm.title}
          content={confirm.content}
          titleTranslateOptions={{ email: record.email }}
          onConfirm={async () => {
            await execute();
            setOpen(false);
          }}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  );
};

const PasswordResetButton = ({ record }: { record: RaRecord }) => {
  const { dataProvider, busy, run } = useStaffAction();
  return (
    <Button
      label="resources.users.actions.passwordReset"
      disabled={busy}
      onClick={() => void run(() => dataProvider.sendPasswordReset(record.id), 'resources.users.notifications.passwordReset', { email: record.email })}
      data-testid="user-password-reset"
    >
      <LockResetIcon />
    </Button>
  );
};

/**
 * The admin actions on one user. Feature-gated ones appear only for staff holding the feature; a
 * staff member does not act on their own account here (the API refuses it too).
 */
export const UserShowActions = () => {
  const record = useRecordContext();
  const { permissions } = usePermissions();
  const { identity } = useGetIdentity();
  if (!record) return <TopToolbar />;
  const own = identity?.id !== undefined && String(identity.id) === String(record.id);
  if (own) return <TopToolbar />;
  const suspended = isSuspended(record);
  const blocked = isBlocked(record);
  return (
    <TopToolbar data-testid="user-actions">
      {suspended ? (
        <UserActionButton record={record} action="unsuspend" icon={<PlayCircleIcon />} />
      ) : (
        <UserActionButton
          record={record}
          action="suspend"
          icon={<PauseCircleIcon />}
          confirm={{ title: 'resources.users.confirm.suspendTitle', content: 'resources.users.confirm.suspendContent' }}
        />
      )}
      {blocked ? (
        <UserActionButton record={record} action="unblock" icon={<LockOpenIcon />} />
      ) : (
        <UserActionButton
          record={record}
          action="block"
          icon={<BlockIcon />}
          confirm={{ title: 'resources.users.confirm.blockTitle', content: 'resources.users.confirm.blockContent' }}
        />
      )}
      {hasFeature(permissions, Features.userPasswordReset) ? <PasswordResetButton record={record} /> : null}
      {hasFeature(permissions, Features.userDelete) ? (
        <DeleteWithConfirmButton
          label="resources.users.actions.delete"
          mutationMode="pessimistic"
          redirect="list"
          confirmTitle="resources.users.confirm.deleteTitle"
          confirmContent="resources.users.confirm.deleteContent"
          titleTranslateOptions={{ email: record.email }}
          successMessage="resources.users.notifications.deleted"
          data-testid="user-delete"
        />
      ) : null}
    </TopToolbar>
  );
};
