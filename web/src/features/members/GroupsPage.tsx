import GroupAddOutlined from '@mui/icons-material/GroupAddOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Container from '@mui/material/Container';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { MAX_GROUP_NAME } from '@axel/domain/teams/teams.decide';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useLoad } from '../../components/useLoad';
import { useSession } from '../../session/store';
import { membersApi, type Group, type Member } from './members.api';
import { MembersTabs } from './MembersTabs';

/** A dialog's work: busy while it runs, its refusal shown in the dialog, closed when it is done. */
const useSubmit = (onDone: () => void) => {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<NormalisedError | null>(null);
  const submit = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      onDone();
    } catch (e) {
      setError(toApiError(e).toJSON());
    } finally {
      setBusy(false);
    }
  };
  const reset = useCallback(() => setError(null), []);
  return { busy, error, submit, reset };
};

/** A new group's name, or a group's new name (required, unique in the team). */
const GroupNameDialog = ({
  open,
  initial,
  title,
  onClose,
  onSave,
}: {
  open: boolean;
  initial: string;
  title: string;
  onClose: () => void;
  onSave: (name: string) => Promise<unknown>;
}) => {
  const { t } = useTranslation();
  const [name, setName] = useState(initial);
  const { busy, error, submit, reset } = useSubmit(onClose);
  useEffect(() => {
    if (open) {
      setName(initial);
      reset();
    }
  }, [open, initial, reset]);
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" data-testid="group-name-dialog">
      <Box
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit(() => onSave(name.trim()));
        }}
      >
        <DialogTitle>{title}</DialogTitle>
        <DialogContent>
          <TextField
            label={t('members.groups.name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            fullWidth
            required
            autoFocus
            sx={{ mt: 1 }}
            slotProps={{ htmlInput: { maxLength: MAX_GROUP_NAME, 'data-testid': 'group-name' } }}
          />
          <ErrorAlert error={error} testId="group-name-error" />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={busy || name.trim() === ''} data-testid="group-name-save">
            {t('members.groups.save')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
};

/** Which of the team's joined members are in the group. */
const GroupMembersDialog = ({
  group,
  joined,
  onClose,
  onSave,
}: {
  group: Group | null;
  joined: Member[];
  onClose: () => void;
  onSave: (memberIds: string[]) => Promise<unknown>;
}) => {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const { busy, error, submit, reset } = useSubmit(onClose);
  useEffect(() => {
    if (group) {
      setChosen(new Set(group.memberIds));
      reset();
    }
  }, [group, reset]);
  const toggle = (memberId: string) =>
    setChosen((now) => {
      const next = new Set(now);
      if (next.has(memberId)) next.delete(memberId);
      else next.add(memberId);
      return next;
    });
  return (
    <Dialog open={group !== null} onClose={onClose} fullWidth maxWidth="sm" data-testid="group-members-dialog">
      <DialogTitle sx={{ overflowWrap: 'anywhere' }}>{t('members.groups.membersTitle', { name: group?.name ?? '' })}</DialogTitle>
      <DialogContent>
        {joined.length === 0 && <DialogContentText>{t('members.groups.noJoined')}</DialogContentText>}
        <Stack>
          {joined.map((m) => (
            <FormControlLabel
              key={m.memberId}
              sx={{ overflowWrap: 'anywhere', mr: 0 }}
              control={
                <Checkbox
                  checked={chosen.has(m.memberId)}
                  onChange={() => toggle(m.memberId)}
                  slotProps={{ input: { 'data-testid': 'group-member-option', 'data-email': m.email ?? '' } as object }}
                />
              }
              label={m.email ?? '—'}
            />
          ))}
        </Stack>
        <ErrorAlert error={error} testId="group-members-error" />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button variant="contained" disabled={busy} onClick={() => void submit(() => onSave([...chosen]))} data-testid="group-members-save">
          {t('members.groups.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

/**
 * members/groupsManage (spec §2, §6): the team's groups by name with their members; the admin and
 * co-admins create, rename and delete groups (deleting asks first: the group's folder grants go
 * with it) and choose each group's members among the team's joined members.
 */
export const GroupsPage = () => {
  const { t } = useTranslation();
  const { user } = useSession();
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<Group | null>(null);
  const [editing, setEditing] = useState<Group | null>(null);
  const [deleting, setDeleting] = useState<Group | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [actionError, setActionError] = useState<NormalisedError | null>(null);
  const role = useLoad(user ? () => membersApi.role(user.id) : null, [user?.id]);
  const teamId = role.data?.teamId ?? null;
  const groups = useLoad(teamId ? () => membersApi.groups(teamId) : null, [teamId]);
  const members = useLoad(teamId ? () => membersApi.everyone(teamId) : null, [teamId]);
  const joined = (members.data ?? []).filter((m) => m.status === 'joined');
  const emailOf = new Map((members.data ?? []).map((m) => [m.memberId, m.email ?? '—']));

  const done = (text: string) => {
    setNotice(text);
    groups.reload();
  };

  return (
    <Container maxWidth="lg" sx={{ py: 3 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', mb: 1 }}>
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
          {t('members.title')}
        </Typography>
        {teamId && (
          <Button variant="contained" startIcon={<GroupAddOutlined />} onClick={() => setCreating(true)} data-testid="group-create">
            {t('members.groups.create')}
          </Button>
        )}
      </Box>
      <MembersTabs current="groupsManage" />
      {role.data && !teamId && <Typography data-testid="members-none">{t('members.none')}</Typography>}
      {notice && (
        <Typography role="status" color="success.main" sx={{ mb: 1 }} data-testid="groups-notice">
          {notice}
        </Typography>
      )}
      <ErrorAlert error={role.error ?? groups.error ?? members.error ?? actionError} testId="groups-error" />
      {(role.loading || groups.loading) && <LinearProgress aria-label={t('common.loading')} />}
      {groups.data && groups.data.length === 0 && (
        <Typography color="text.secondary" data-testid="groups-empty">
          {t('members.groups.empty')}
        </Typography>
      )}
      <Stack spacing={1} data-testid="groups-list">
        {(groups.data ?? []).map((g) => (
          <Paper
            key={g.id}
            variant="outlined"
            sx={{ p: 2, display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}
            data-testid="group-row"
            data-name={g.name}
          >
            <Box sx={{ flex: '1 1 220px', minWidth: 0 }}>
              <Typography sx={{ fontWeight: 500, overflowWrap: 'anywhere' }} data-testid="group-name-text">
                {g.name}
              </Typography>
              <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }} data-testid="group-members-text">
                {g.memberIds.length === 0
                  ? t('members.groups.noMembers')
                  : `${t('members.groups.memberCount', { count: g.memberIds.length })}: ${g.memberIds.map((id) => emailOf.get(id) ?? '—').join(', ')}`}
              </Typography>
            </Box>
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
              <Button size="small" onClick={() => setEditing(g)} data-testid="group-edit-members">
                {t('members.groups.members')}
              </Button>
              <Button size="small" onClick={() => setRenaming(g)} data-testid="group-rename">
                {t('members.groups.rename')}
              </Button>
              <Button size="small" color="error" onClick={() => setDeleting(g)} data-testid="group-delete">
                {t('members.groups.delete')}
              </Button>
            </Box>
          </Paper>
        ))}
      </Stack>
      {teamId && (
        <>
          <GroupNameDialog
            open={creating}
            initial=""
            title={t('members.groups.createTitle')}
            onClose={() => setCreating(false)}
            onSave={async (name) => {
              await membersApi.createGroup(teamId, name);
              done(t('members.groups.done.created'));
            }}
          />
          <GroupNameDialog
            open={renaming !== null}
            initial={renaming?.name ?? ''}
            title={t('members.groups.renameTitle')}
            onClose={() => setRenaming(null)}
            onSave={async (name) => {
              if (renaming) await membersApi.renameGroup(teamId, renaming.id, name);
              done(t('members.groups.done.renamed'));
            }}
          />
          <GroupMembersDialog
            group={editing}
            joined={joined}
            onClose={() => setEditing(null)}
            onSave={async (memberIds) => {
              if (editing) await membersApi.setGroupMembers(teamId, editing.id, memberIds);
              done(t('members.groups.done.members'));
            }}
          />
          <Dialog open={deleting !== null} onClose={() => setDeleting(null)} data-testid="group-delete-dialog">
            <DialogTitle sx={{ overflowWrap: 'anywhere' }}>{t('members.groups.deleteTitle', { name: deleting?.name ?? '' })}</DialogTitle>
            <DialogContent>
              <DialogContentText>{t('members.groups.deleteBody')}</DialogContentText>
            </DialogContent>
            <DialogActions>
              <Button onClick={() => setDeleting(null)}>{t('common.cancel')}</Button>
              <Button
                color="error"
                variant="contained"
                data-testid="group-delete-confirm"
                onClick={() => {
                  const g = deleting;
                  setDeleting(null);
                  setActionError(null);
                  if (g)
                    membersApi.deleteGroup(teamId, g.id).then(
                      () => done(t('members.groups.done.deleted')),
                      (e: unknown) => setActionError(toApiError(e).toJSON()),
                    );
                }}
              >
                {t('members.groups.delete')}
              </Button>
            </DialogActions>
          </Dialog>
        </>
      )}
    </Container>
  );
};
