import BlockIcon from '@mui/icons-material/Block';
import LockResetIcon from '@mui/icons-material/LockReset';
import PauseCircleIcon from '@mui/icons-material/PauseCircle';
import PlayCircleIcon from '@mui/icons-material/PlayCircle';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import { Alert, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, TextField as MuiTextField } from '@mui/material';
import type { StaffRefusal } from '@axel/domain/accounts/staff-rank';
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
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { assignableRoles, decisionOn, Features, hasFeature } from '../../auth/access';
import type { ConsoleDataProvider, UserAction } from '../../data/dataProvider';
import { DbsAccessButton } from '../databases/DbsAccessButton';
import { ROLE_CHOICES } from './userFields';
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
  /** The confirmation also takes an optional reason, kept in the user's activity (a suspension). */
  readonly withReason?: boolean;
}

/** As long as the API takes a reason. */
const REASON_MAX = 500;

const UserActionButton = ({ record, action, icon, confirm, withReason = false }: ActionButtonProps) => {
  const { dataProvider, busy, run } = useStaffAction();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const execute = () =>
    run(
      () => dataProvider.userAction(record.id, action, withReason && reason.trim() ? { reason: reason.trim() } : undefined),
      `resources.users.notifications.${action}`,
    );
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
          content={
            withReason ? (
              <>
                {translate(confirm.content)}
                <MuiTextField
                  fullWidth
                  multiline
                  minRows={2}
                  margin="normal"
                  label={translate('resources.users.confirm.reason')}
                  helperText={translate('resources.users.confirm.reasonHelp')}
                  value={reason}
                  onChange={(event) => setReason(event.target.value)}
                  slotProps={{ htmlInput: { maxLength: REASON_MAX, 'data-testid': `user-${action}-reason` } }}
                />
              </>
            ) : (
              confirm.content
            )
          }
          titleTranslateOptions={{ email: record.email }}
          onConfirm={async () => {
            await execute();
            setOpen(false);
            setReason('');
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

const ChangeRoleButton = ({ record, roles }: { record: RaRecord; roles: readonly string[] }) => {
  const { dataProvider, busy, run } = useStaffAction();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const [role, setRole] = useState(roles[0] ?? '');
  return (
    <>
      <Button label="resources.users.actions.changeRole" disabled={busy} onClick={() => setOpen(true)} data-testid="user-change-role">
        <ManageAccountsIcon />
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="change-role-title">
        <DialogTitle id="change-role-title">{translate('resources.users.role.title', { email: record.email })}</DialogTitle>
        <DialogContent>
          <MuiTextField
            select
            fullWidth
            margin="dense"
            label={translate('resources.users.role.label')}
            value={role}
            onChange={(event) => setRole(event.target.value)}
            slotProps={{ htmlInput: { 'data-testid': 'user-role-select' } }}
          >
            {ROLE_CHOICES.filter((choice) => roles.includes(choice.id)).map((choice) => (
              <MenuItem key={choice.id} value={choice.id}>
                {translate(choice.name)}
              </MenuItem>
            ))}
          </MuiTextField>
        </DialogContent>
        <DialogActions>
          <Button label="ra.action.cancel" onClick={() => setOpen(false)} />
          <Button
            label="resources.users.role.save"
            disabled={busy || !role}
            onClick={async () => {
              await run(() => dataProvider.changeRole(record.id, role), 'resources.users.notifications.roleChanged');
              setOpen(false);
            }}
            data-testid="user-role-save"
          />
        </DialogActions>
      </Dialog>
    </>
  );
};

/** Why the signed-in staff member cannot act on this account, in place of the buttons they cannot use. */
const Refusal = ({ reason }: { reason: StaffRefusal }) => {
  const translate = useTranslate();
  return (
    <Alert severity="info" sx={{ py: 0 }} data-testid="user-actions-refused" data-reason={reason}>
      {translate(`resources.users.refusals.${reason}`)}
    </Alert>
  );
};

/** A deleted account takes no more actions: the page says so instead of offering them. */
const DeletedNotice = () => {
  const translate = useTranslate();
  return (
    <TopToolbar data-testid="user-actions" sx={{ flexWrap: 'wrap' }}>
      <Alert severity="info" sx={{ py: 0 }} data-testid="user-actions-deleted">
        {translate('resources.users.deletedNoActions')}
      </Alert>
    </TopToolbar>
  );
};

/**
 * The admin actions on one user, offered only when the staff hierarchy lets the signed-in staff
 * member take them (the API refuses the same way); otherwise the reason shows instead.
 * Feature-gated ones appear only for staff holding the feature.
 */
export const UserShowActions = () => {
  const record = useRecordContext();
  const { permissions } = usePermissions();
  const { identity } = useGetIdentity();
  if (!record) return <TopToolbar />;
  if (typeof record.deletedAt === 'string' && record.deletedAt) return <DeletedNotice />;
  const decision = decisionOn(permissions, identity?.id, record);
  if (!decision) return <TopToolbar />;
  if (!decision.allowed) {
    return (
      <TopToolbar data-testid="user-actions" sx={{ flexWrap: 'wrap' }}>
        <Refusal reason={decision.reason} />
      </TopToolbar>
    );
  }
  const suspended = isSuspended(record);
  const blocked = isBlocked(record);
  const roles = assignableRoles(permissions, identity?.id, record);
  // on a phone the actions wrap rather than push the page wider than the screen
  return (
    <TopToolbar data-testid="user-actions" sx={{ flexWrap: 'wrap' }}>
      {suspended ? (
        <UserActionButton record={record} action="unsuspend" icon={<PlayCircleIcon />} />
      ) : (
        <UserActionButton
          record={record}
          action="suspend"
          icon={<PauseCircleIcon />}
          confirm={{ title: 'resources.users.confirm.suspendTitle', content: 'resources.users.confirm.suspendContent' }}
          withReason
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
      {roles.length > 0 ? <ChangeRoleButton record={record} roles={roles} /> : null}
      {hasFeature(permissions, Features.userPasswordReset) ? <PasswordResetButton record={record} /> : null}
      {hasFeature(permissions, Features.ddbaas) ? <DbsAccessButton record={record} /> : null}
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
