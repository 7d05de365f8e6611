import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
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
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDateTime } from '../../components/i18nHelpers';
import { useLoad } from '../../components/useLoad';
import { useSession } from '../../session/store';
import { ACTIVITY_TYPES, MEMBERS_PAGE_SIZE, membersApi, type ActivityEntry, type ActivityType } from './members.api';
import { MembersTabs } from './MembersTabs';

/** Columns a phone has no room for: their content is shown under the entry instead. */
const WIDE = { display: { xs: 'none', sm: 'table-cell' } } as const;
const NARROW = { display: { xs: 'block', sm: 'none' } } as const;

/** What an entry is about: the path(s) it touched, or the member a membership entry names. */
const Subject = ({ entry, emailOf }: { entry: ActivityEntry; emailOf: Map<string, string> }) => {
  if (entry.memberId) return <>{emailOf.get(entry.memberId) ?? '—'}</>;
  const { sourcePath: from, destinationPath: to } = entry;
  if (from && to)
    return (
      <>
        <span data-testid="activity-source">{from}</span> → <span data-testid="activity-destination">{to}</span>
      </>
    );
  return <span data-testid={from ? 'activity-source' : 'activity-destination'}>{from ?? to ?? '—'}</span>;
};

/**
 * members/activity (spec §2, §3, §6): the team's activity log for its admin and co-admins, newest
 * first, 50 a page: what was done in words, the path before and after, who and when (in the
 * reader's own time zone), filtered by kind and by member.
 */
export const MembersActivityPage = () => {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const [page, setPage] = useState(1);
  const [type, setType] = useState<ActivityType | ''>('');
  const [memberId, setMemberId] = useState('');
  const role = useLoad(user ? () => membersApi.role(user.id) : null, [user?.id]);
  const teamId = role.data?.teamId ?? null;
  const manages = role.data?.role === 'admin' || role.data?.isCoAdmin === true;
  const members = useLoad(teamId && manages ? () => membersApi.everyone(teamId) : null, [teamId, manages]);
  const activity = useLoad(teamId && manages ? () => membersApi.activity(teamId, page, { type: type || undefined, memberId: memberId || undefined }) : null, [
    teamId,
    manages,
    page,
    type,
    memberId,
  ]);
  const emailOf = new Map((members.data ?? []).flatMap((m) => (m.email ? [[m.memberId, m.email] as const] : [])));
  const pages = Math.max(1, Math.ceil((activity.data?.total ?? 0) / MEMBERS_PAGE_SIZE));

  return (
    <Container maxWidth="lg" sx={{ py: 3 }}>
      <Typography variant="h5" component="h1" sx={{ mb: 1 }}>
        {t('members.title')}
      </Typography>
      <MembersTabs current="activity" />
      {role.data && !teamId && <Typography data-testid="members-none">{t('members.none')}</Typography>}
      {role.data && teamId && !manages && <Typography data-testid="activity-not-admin">{t('members.activity.adminsOnly')}</Typography>}
      {teamId && manages && (
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mb: 2 }}>
          <TextField
            select
            size="small"
            label={t('members.activity.filterType')}
            value={type}
            onChange={(e) => {
              setType(e.target.value as ActivityType | '');
              setPage(1);
            }}
            sx={{ flex: '1 1 180px', maxWidth: { sm: 260 } }}
            slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'activity-filter-type' } as object } }}
          >
            <MenuItem value="">{t('members.activity.all')}</MenuItem>
            {ACTIVITY_TYPES.map((k) => (
              <MenuItem key={k} value={k} data-testid={`activity-type-${k}`}>
                {t(`members.activity.types.${k}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label={t('members.activity.filterMember')}
            value={memberId}
            onChange={(e) => {
              setMemberId(e.target.value);
              setPage(1);
            }}
            sx={{ flex: '1 1 180px', maxWidth: { sm: 320 } }}
            slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'activity-filter-member' } as object } }}
          >
            <MenuItem value="">{t('members.activity.everyone')}</MenuItem>
            {(members.data ?? [])
              .filter((m) => m.userId)
              .map((m) => (
                <MenuItem key={m.memberId} value={m.memberId} sx={{ overflowWrap: 'anywhere' }}>
                  {m.email ?? '—'}
                </MenuItem>
              ))}
          </TextField>
        </Box>
      )}
      <ErrorAlert error={role.error ?? activity.error ?? members.error} testId="activity-error" />
      {(role.loading || activity.loading) && <LinearProgress aria-label={t('common.loading')} />}
      {activity.data && activity.data.data.length === 0 && (
        <Typography color="text.secondary" data-testid="activity-empty">
          {t('members.activity.empty')}
        </Typography>
      )}
      {activity.data && activity.data.data.length > 0 && (
        <Paper variant="outlined">
          <Table size="small" data-testid="activity-table" sx={{ tableLayout: 'fixed', width: '100%' }}>
            <TableHead>
              <TableRow>
                <TableCell sx={{ width: { xs: '38%', sm: '18%' } }}>{t('members.activity.columns.type')}</TableCell>
                <TableCell>{t('members.activity.columns.path')}</TableCell>
                <TableCell sx={{ ...WIDE, width: '24%' }}>{t('members.activity.columns.who')}</TableCell>
                <TableCell sx={{ ...WIDE, width: '18%' }}>{t('members.activity.columns.when')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {activity.data.data.map((e) => (
                <TableRow key={e.id} data-testid="activity-row" data-type={e.type}>
                  <TableCell sx={{ overflowWrap: 'anywhere', verticalAlign: 'top' }}>{t(`members.activity.types.${e.type}`)}</TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere', verticalAlign: 'top' }}>
                    <Subject entry={e} emailOf={emailOf} />
                    <Typography variant="caption" color="text.secondary" component="div" sx={NARROW}>
                      {e.actorEmail ?? '—'} · {formatDateTime(e.at, i18n.language)}
                    </Typography>
                  </TableCell>
                  <TableCell sx={{ ...WIDE, overflowWrap: 'anywhere', verticalAlign: 'top' }} data-testid="activity-who">
                    {e.actorEmail ?? '—'}
                  </TableCell>
                  <TableCell sx={{ ...WIDE, verticalAlign: 'top' }}>{formatDateTime(e.at, i18n.language)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      )}
      {pages > 1 && <Pagination sx={{ mt: 2 }} count={pages} page={page} onChange={(_, p) => setPage(p)} siblingCount={0} />}
    </Container>
  );
};
