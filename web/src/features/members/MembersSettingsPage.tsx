import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useLoad } from '../../components/useLoad';
import { useSession } from '../../session/store';
import { membersApi, type Member } from './members.api';
import { MembersTabs } from './MembersTabs';

type ForbiddenAction = Member['forbiddenActions'][number];
/** The switches say what a member may do; the member call holds what they may not. */
const ALLOWANCES: readonly { action: ForbiddenAction; key: string }[] = [
  { action: 'createRootFolder', key: 'members.settings.mayCreateRootFolders' },
  { action: 'dropbox', key: 'members.settings.mayUseDropbox' },
];

const Section = ({ title, empty, testId, children }: { title: string; empty: string | null; testId: string; children: ReactNode }) => (
  <Box component="section" sx={{ mb: 3 }} data-testid={testId}>
    <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
      {title}
    </Typography>
    {empty ? (
      <Typography color="text.secondary" data-testid={`${testId}-empty`}>
        {empty}
      </Typography>
    ) : (
      <Stack spacing={1}>{children}</Stack>
    )}
  </Box>
);

const Row = ({ member, children }: { member: Member; children: ReactNode }) => (
  <Paper
    variant="outlined"
    sx={{ p: 1.5, display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}
    data-testid="settings-member"
    data-email={member.email ?? ''}
  >
    <Typography sx={{ flex: '1 1 200px', minWidth: 0, overflowWrap: 'anywhere' }}>{member.email ?? '—'}</Typography>
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>{children}</Box>
  </Paper>
);

/**
 * members/settings (spec §2, §6): the suspended members, to give them access back; the co-admins,
 * whom the admin can make members again; and what each joined member may do: create folders at
 * the root of the team storage, use Dropbox.
 */
export const MembersSettingsPage = () => {
  const { t } = useTranslation();
  const { user } = useSession();
  const [notice, setNotice] = useState<string | null>(null);
  const [actionError, setActionError] = useState<NormalisedError | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const role = useLoad(user ? () => membersApi.role(user.id) : null, [user?.id]);
  const teamId = role.data?.teamId ?? null;
  const amAdmin = role.data?.role === 'admin';
  const manages = amAdmin || role.data?.isCoAdmin === true;
  const members = useLoad(teamId && manages ? () => membersApi.everyone(teamId) : null, [teamId, manages]);
  const all = (members.data ?? []).filter((m) => m.role !== 'admin');
  const suspended = all.filter((m) => m.status === 'suspended');
  const coAdmins = all.filter((m) => m.role === 'co_admin_member' && m.status !== 'pending');
  const joined = all.filter((m) => m.status === 'joined');

  const change = async (m: Member, body: Parameters<typeof membersApi.change>[2], done: string) => {
    if (!teamId) return;
    setActionError(null);
    setBusy(m.memberId);
    try {
      await membersApi.change(teamId, m.memberId, body);
      setNotice(done);
      members.reload();
    } catch (e) {
      setActionError(toApiError(e).toJSON());
    } finally {
      setBusy(null);
    }
  };
  const allow = (m: Member, action: ForbiddenAction, allowed: boolean) =>
    change(
      m,
      { forbiddenActions: allowed ? m.forbiddenActions.filter((a) => a !== action) : [...new Set([...m.forbiddenActions, action])] },
      t('members.settings.done.saved'),
    );

  return (
    <Container maxWidth="lg" sx={{ py: 3 }}>
      <Typography variant="h5" component="h1" sx={{ mb: 1 }}>
        {t('members.title')}
      </Typography>
      <MembersTabs current="settings" />
      {role.data && !teamId && <Typography data-testid="members-none">{t('members.none')}</Typography>}
      {role.data && teamId && !manages && <Typography data-testid="settings-not-admin">{t('members.activity.adminsOnly')}</Typography>}
      {notice && (
        <Typography role="status" color="success.main" sx={{ mb: 1 }} data-testid="settings-notice">
          {notice}
        </Typography>
      )}
      <ErrorAlert error={role.error ?? members.error ?? actionError} testId="settings-error" />
      {(role.loading || members.loading) && <LinearProgress aria-label={t('common.loading')} />}
      {members.data && (
        <>
          <Section title={t('members.settings.suspended')} empty={suspended.length ? null : t('members.settings.noSuspended')} testId="settings-suspended">
            {suspended.map((m) => (
              <Row key={m.memberId} member={m}>
                <Button
                  size="small"
                  disabled={busy === m.memberId}
                  onClick={() => change(m, { status: 'joined' }, t('members.done.unsuspended'))}
                  data-testid="settings-unsuspend"
                >
                  {t('members.actions.unsuspend')}
                </Button>
              </Row>
            ))}
          </Section>
          <Section title={t('members.settings.coAdmins')} empty={coAdmins.length ? null : t('members.settings.noCoAdmins')} testId="settings-coadmins">
            {coAdmins.map((m) => (
              <Row key={m.memberId} member={m}>
                {amAdmin && (
                  <Button
                    size="small"
                    disabled={busy === m.memberId}
                    onClick={() => change(m, { role: 'member' }, t('members.done.role'))}
                    data-testid="settings-revoke-coadmin"
                  >
                    {t('members.actions.revokeCoAdmin')}
                  </Button>
                )}
              </Row>
            ))}
          </Section>
          <Section title={t('members.settings.allowances')} empty={joined.length ? null : t('members.groups.noJoined')} testId="settings-allowances">
            {joined.map((m) => (
              <Row key={m.memberId} member={m}>
                {ALLOWANCES.map(({ action, key }) => (
                  <FormControlLabel
                    key={action}
                    label={t(key)}
                    control={
                      <Switch
                        checked={!m.forbiddenActions.includes(action)}
                        disabled={busy === m.memberId}
                        onChange={(e) => void allow(m, action, e.target.checked)}
                        slotProps={{ input: { 'data-testid': `settings-allow-${action}` } as object }}
                      />
                    }
                  />
                ))}
              </Row>
            ))}
          </Section>
        </>
      )}
    </Container>
  );
};
