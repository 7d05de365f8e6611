import PersonAddAlt1Outlined from '@mui/icons-material/PersonAddAlt1Outlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useLoad } from '../../components/useLoad';
import { useSession } from '../../session/store';
import { MEMBERS_PAGE_SIZE, membersApi, type Member } from './members.api';
import { MembersTabs } from './MembersTabs';

const WIDE = { display: { xs: 'none', sm: 'table-cell' } } as const;
const STATUS_COLOR = { joined: 'success', pending: 'warning', suspended: 'default' } as const;

/** The invite dialog: up to 10 addresses split by spaces, commas or semicolons, and each new member's quota. */
const InviteDialog = ({ teamId, open, onClose, onInvited }: { teamId: string; open: boolean; onClose: () => void; onInvited: (count: number) => void }) => {
  const { t } = useTranslation();
  const [emails, setEmails] = useState('');
  const [quota, setQuota] = useState('');
  const [error, setError] = useState<NormalisedError | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const res = await membersApi.invite(teamId, emails, quota.trim() === '' ? undefined : Number(quota));
      setEmails('');
      setQuota('');
      onInvited(res.data.length);
    } catch (e) {
      setError(toApiError(e).toJSON());
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" data-testid="invite-dialog">
      <DialogTitle>{t('members.invite.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t('members.invite.help')}</DialogContentText>
        <TextField
          label={t('members.invite.emails')}
          value={emails}
          onChange={(e) => setEmails(e.target.value)}
          multiline
          minRows={2}
          fullWidth
          required
          slotProps={{ htmlInput: { 'data-testid': 'invite-emails' } }}
        />
        <TextField
          label={t('members.invite.quota')}
          value={quota}
          onChange={(e) => setQuota(e.target.value.replace(/[^0-9]/g, ''))}
          fullWidth
          sx={{ mt: 2 }}
          slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'invite-quota' } }}
        />
        <ErrorAlert error={error} testId="invite-error" />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button variant="contained" onClick={submit} disabled={busy || emails.trim() === ''} data-testid="invite-submit">
          {t('members.invite.send')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

/** Removing a member deletes their place in the team: typing the word confirms it (spec §4). */
const RemoveDialog = ({ member, onClose, onConfirm }: { member: Member | null; onClose: () => void; onConfirm: () => void }) => {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const word = t('members.remove.word');
  return (
    <Dialog open={member !== null} onClose={onClose} data-testid="remove-dialog">
      <DialogTitle>{t('members.remove.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t('members.remove.body', { email: member?.email ?? '', word })}</DialogContentText>
        <TextField
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          fullWidth
          slotProps={{ htmlInput: { 'data-testid': 'remove-typed', 'aria-label': word } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button color="error" variant="contained" disabled={typed.trim().toLowerCase() !== word.toLowerCase()} onClick={onConfirm} data-testid="remove-confirm">
          {t('members.remove.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

/**
 * members/manage: the team's members in the spec's order (admin, co-admins, active, others), 50 a
 * page, with status chips, the invite dialog, and per member suspend or give access back, co-admin
 * (the admin only) and remove with a typed confirmation.
 */
export const MembersPage = () => {
  const { t } = useTranslation();
  const { user } = useSession();
  const [page, setPage] = useState(1);
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [actionError, setActionError] = useState<NormalisedError | null>(null);
  const role = useLoad(user ? () => membersApi.role(user.id) : null, [user?.id]);
  const teamId = role.data?.teamId ?? null;
  const members = useLoad(teamId ? () => membersApi.members(teamId, page) : null, [teamId, page]);
  const amAdmin = role.data?.role === 'admin';

  const act = async (work: () => Promise<unknown>, done: string) => {
    setActionError(null);
    try {
      await work();
      setNotice(done);
      members.reload();
    } catch (e) {
      setActionError(toApiError(e).toJSON());
    }
  };

  const pages = Math.max(1, Math.ceil((members.data?.total ?? 0) / MEMBERS_PAGE_SIZE));
  return (
    <Container maxWidth="lg" sx={{ py: 3 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', mb: 1 }}>
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
          {t('members.title')}
        </Typography>
        {teamId && (
          <Button variant="contained" startIcon={<PersonAddAlt1Outlined />} onClick={() => setInviting(true)} data-testid="invite-open">
            {t('members.invite.open')}
          </Button>
        )}
      </Box>
      <MembersTabs current="manage" />
      {role.data && !teamId && <Typography data-testid="members-none">{t('members.none')}</Typography>}
      {role.data && teamId && (
        <Typography color="text.secondary" sx={{ mb: 2 }} data-testid="members-seats">
          {t('members.seats', { taken: Math.max(0, (members.data?.total ?? 1) - 1), seats: role.data.freeSeats })}
        </Typography>
      )}
      {notice && (
        <Typography role="status" color="success.main" sx={{ mb: 1 }} data-testid="members-notice">
          {notice}
        </Typography>
      )}
      <ErrorAlert error={role.error ?? members.error ?? actionError} testId="members-error" />
      {(role.loading || members.loading) && <LinearProgress aria-label={t('common.loading')} />}
      {members.data && (
        <Paper variant="outlined">
          <Table size="small" data-testid="members-table">
            <TableHead>
              <TableRow>
                <TableCell>{t('members.columns.email')}</TableCell>
                <TableCell sx={WIDE}>{t('members.columns.role')}</TableCell>
                <TableCell>{t('members.columns.status')}</TableCell>
                <TableCell sx={WIDE}>{t('members.columns.quota')}</TableCell>
                <TableCell align="right">{t('members.columns.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {members.data.data.map((m) => (
                <TableRow key={m.memberId} data-testid="member-row" data-email={m.email ?? ''} data-status={m.status} data-role={m.role}>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>
                    {m.email ?? '—'}
                    <Typography variant="caption" color="text.secondary" component="div" sx={{ display: { xs: 'block', sm: 'none' } }}>
                      {t(`members.roles.${m.role}`)}
                    </Typography>
                  </TableCell>
                  <TableCell sx={WIDE}>{t(`members.roles.${m.role}`)}</TableCell>
                  <TableCell>
                    <Chip size="small" color={STATUS_COLOR[m.status]} label={t(`members.statuses.${m.status}`)} data-testid="member-status" />
                  </TableCell>
                  <TableCell sx={WIDE}>{m.role === 'admin' ? '—' : t('members.quotaGb', { count: m.quota })}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: { sm: 'nowrap' } }}>
                    {m.role !== 'admin' && teamId && (
                      <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end', flexWrap: 'wrap' }}>
                        {m.status === 'joined' && (
                          <Button
                            size="small"
                            onClick={() => act(() => membersApi.change(teamId, m.memberId, { status: 'suspended' }), t('members.done.suspended'))}
                            data-testid="member-suspend"
                          >
                            {t('members.actions.suspend')}
                          </Button>
                        )}
                        {m.status === 'suspended' && (
                          <Button
                            size="small"
                            onClick={() => act(() => membersApi.change(teamId, m.memberId, { status: 'joined' }), t('members.done.unsuspended'))}
                            data-testid="member-unsuspend"
                          >
                            {t('members.actions.unsuspend')}
                          </Button>
                        )}
                        {amAdmin && m.status === 'joined' && (
                          <Button
                            size="small"
                            onClick={() =>
                              act(
                                () => membersApi.change(teamId, m.memberId, { role: m.role === 'co_admin_member' ? 'member' : 'co_admin_member' }),
                                t('members.done.role'),
                              )
                            }
                            data-testid="member-coadmin"
                          >
                            {t(m.role === 'co_admin_member' ? 'members.actions.revokeCoAdmin' : 'members.actions.makeCoAdmin')}
                          </Button>
                        )}
                        <Button size="small" color="error" onClick={() => setRemoving(m)} data-testid="member-remove">
                          {t(m.status === 'pending' ? 'members.actions.withdraw' : 'members.actions.remove')}
                        </Button>
                      </Box>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      )}
      {pages > 1 && <Pagination sx={{ mt: 2 }} count={pages} page={page} onChange={(_, p) => setPage(p)} />}
      {teamId && (
        <InviteDialog
          teamId={teamId}
          open={inviting}
          onClose={() => setInviting(false)}
          onInvited={(count) => {
            setInviting(false);
            setNotice(t('members.done.invited', { count }));
            members.reload();
          }}
        />
      )}
      <RemoveDialog
        member={removing}
        onClose={() => setRemoving(null)}
        onConfirm={() => {
          const m = removing;
          setRemoving(null);
          if (m && teamId) void act(() => membersApi.remove(teamId, m.memberId), t('members.done.removed'));
        }}
      />
    </Container>
  );
};
