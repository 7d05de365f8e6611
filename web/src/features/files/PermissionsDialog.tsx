import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { PERMISSION_LEVELS } from '@axel/domain/teams/permissions';
import { useMachine } from '@xstate/react';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useLoad } from '../../components/useLoad';
import { membersApi } from '../members/members.api';
import { filesApi, type Item } from './files.api';
import { permissionsApi, type ItemPermissions, type PermissionLevel } from './permissions.api';
import { changed, keyOf, levelsFor, type PrincipalKey } from './permissions.draft';
import { permissionsMachine, type SaveRequest } from './permissions.machine';

const oneLine = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 } as const;

/** A native select: one control on every phone, and one a keyboard reaches without a popup. */
const LevelSelect = ({
  value,
  levels,
  onChange,
  label,
  testId,
}: {
  value: PermissionLevel;
  levels: readonly PermissionLevel[];
  onChange: (level: PermissionLevel) => void;
  label: string;
  testId: string;
}) => {
  const { t } = useTranslation();
  return (
    <TextField
      select
      size="small"
      value={value}
      onChange={(e) => onChange(e.target.value as PermissionLevel)}
      sx={{ width: 140, flexShrink: 0 }}
      slotProps={{ select: { native: true }, htmlInput: { 'aria-label': label, 'data-testid': testId } }}
    >
      {levels.map((l) => (
        <option key={l} value={l}>
          {t(`files.permissions.levels.${l}`)}
        </option>
      ))}
    </TextField>
  );
};

const Section = ({ title, children }: { title: string; children: ReactNode }) => (
  <Box sx={{ mt: 2 }}>
    <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
      {title}
    </Typography>
    {children}
  </Box>
);

/**
 * Folder permissions of team storage (spec §3, §6), for the team's admin and co-admins: the grants
 * on the item to members and groups, changed, added and removed, then saved as a whole; the grants
 * it inherits from the folders above, read-only with the folder each comes from; and every
 * member's effective access with where it comes from.
 */
export const PermissionsDialog = ({ userId, teamId, item, onClose }: { userId: string; teamId: string; item: Item | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const loaded = useLoad(
    item
      ? () =>
          Promise.all([
            permissionsApi.get(userId, item.storageId, item.id),
            membersApi.everyone(teamId),
            membersApi.groups(teamId),
            item.parentId
              ? Promise.all([filesApi.parents(userId, item.storageId, item.parentId), filesApi.folder(userId, item.storageId, item.parentId)]).then(
                  ([above, folder]) => [...above, folder],
                )
              : Promise.resolve([]),
          ])
      : null,
    [userId, teamId, item],
    { reset: true },
  );
  const [flow, send] = useMachine(
    permissionsMachine.provide({
      actors: {
        save: fromPromise<ItemPermissions, SaveRequest>(({ input: r }) => permissionsApi.set(r.userId, r.storageId, r.itemId, r.grants)),
      },
    }),
  );
  const { answer, draft, error, saved } = flow.context;
  const busy = flow.matches('saving');
  const [adding, setAdding] = useState<PrincipalKey | ''>('');
  const [addLevel, setAddLevel] = useState<PermissionLevel>('view');

  const permissions = loaded.data?.[0];
  useEffect(() => {
    // another item (or none): the last one's draft goes
    send({ type: 'CLOSE' });
    setAdding('');
    if (permissions) send({ type: 'LOADED', answer: permissions });
  }, [permissions, send]);

  const members = loaded.data?.[1] ?? [];
  const groups = loaded.data?.[2] ?? [];
  const folders = loaded.data?.[3] ?? [];
  const names = useMemo(() => {
    const map = new Map<PrincipalKey, string>();
    for (const m of members) if (m.userId) map.set(`user:${m.userId}`, m.email ?? '—');
    for (const g of groups) map.set(`group:${g.id}`, t('files.permissions.group', { name: g.name }));
    return map;
  }, [members, groups, t]);
  const nameOf = (key: PrincipalKey) => names.get(key) ?? t('files.permissions.unknown');
  const folderName = (id: string) => (id === item?.id ? t('files.permissions.thisItem') : (folders.find((f) => f.id === id)?.name ?? '—'));
  const roleOf = new Map(members.map((m) => [m.userId, m.role]));

  // those a grant can be given to: members with an account who are not managers (they have every level), and groups
  const candidates: PrincipalKey[] = [
    ...groups.map((g): PrincipalKey => `group:${g.id}`),
    ...members.filter((m) => m.userId && m.role === 'member' && m.status !== 'pending').map((m): PrincipalKey => `user:${m.userId}`),
  ].filter((key) => !draft.some((g) => g.key === key));
  const inherited = answer?.inherited ?? [];

  const save = () => {
    if (item) send({ type: 'SAVE', userId, storageId: item.storageId, itemId: item.id });
  };

  const explain = (e: ItemPermissions['effective'][number]) => {
    if (e.source === 'role') return t(`files.permissions.byRole.${roleOf.get(e.userId) === 'admin' ? 'admin' : 'co_admin_member'}`);
    if (e.source === 'none' || !e.from) return t('files.permissions.noGrant');
    const where = e.from === item?.id ? t('files.permissions.here') : t('files.permissions.fromFolder', { folder: folderName(e.from) });
    return e.via?.kind === 'group' ? `${where} · ${nameOf(`group:${e.via.id}`)}` : where;
  };

  return (
    <Dialog open={item !== null} onClose={onClose} fullWidth maxWidth="sm" data-testid="permissions-dialog">
      <DialogTitle sx={{ overflowWrap: 'anywhere' }}>{t('files.permissions.title', { name: item?.name ?? '' })}</DialogTitle>
      <DialogContent>
        {loaded.loading && <LinearProgress aria-label={t('common.loading')} />}
        <ErrorAlert error={loaded.error} testId="permissions-load-error" />
        {answer && (
          <>
            <Section title={t('files.permissions.given')}>
              {draft.length === 0 && (
                <Typography variant="body2" color="text.secondary" data-testid="permissions-none">
                  {t('files.permissions.noneGiven')}
                </Typography>
              )}
              {draft.map((g) => (
                <Box
                  key={g.key}
                  sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 1, py: 0.5 }}
                  data-testid="grant-row"
                  data-principal={nameOf(g.key)}
                >
                  {/* a phone gives the name a line of its own above its level */}
                  <Typography sx={{ ...oneLine, flexGrow: 1, flexBasis: { xs: '100%', sm: 0 } }} title={nameOf(g.key)}>
                    {nameOf(g.key)}
                  </Typography>
                  <LevelSelect
                    value={g.level}
                    levels={levelsFor(inherited, g.key)}
                    onChange={(level) => send({ type: 'SET_LEVEL', key: g.key, level })}
                    label={t('files.permissions.levelOf', { name: nameOf(g.key) })}
                    testId="grant-level"
                  />
                  <IconButton
                    aria-label={t('files.permissions.remove', { name: nameOf(g.key) })}
                    onClick={() => send({ type: 'REMOVE', key: g.key })}
                    data-testid="grant-remove"
                  >
                    <DeleteOutlined />
                  </IconButton>
                </Box>
              ))}
              {candidates.length > 0 && (
                <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 1 }}>
                  <TextField
                    select
                    size="small"
                    value={adding}
                    onChange={(e) => {
                      const key = e.target.value as PrincipalKey | '';
                      setAdding(key);
                      if (key) setAddLevel(levelsFor(inherited, key).includes('view') ? 'view' : levelsFor(inherited, key)[0]!);
                    }}
                    sx={{ flex: '1 1 180px', minWidth: 0 }}
                    slotProps={{ select: { native: true }, htmlInput: { 'aria-label': t('files.permissions.who'), 'data-testid': 'grant-add-who' } }}
                  >
                    <option value="">{t('files.permissions.who')}</option>
                    {candidates.map((key) => (
                      <option key={key} value={key}>
                        {nameOf(key)}
                      </option>
                    ))}
                  </TextField>
                  <LevelSelect
                    value={addLevel}
                    levels={adding ? levelsFor(inherited, adding) : PERMISSION_LEVELS}
                    onChange={setAddLevel}
                    label={t('files.permissions.level')}
                    testId="grant-add-level"
                  />
                  <Button
                    disabled={!adding}
                    onClick={() => {
                      if (!adding) return;
                      send({ type: 'SET_LEVEL', key: adding, level: addLevel });
                      setAdding('');
                    }}
                    data-testid="grant-add"
                  >
                    {t('files.permissions.add')}
                  </Button>
                </Box>
              )}
            </Section>
            {inherited.length > 0 && (
              <Section title={t('files.permissions.inherited')}>
                {inherited.map((g) => (
                  <Box
                    key={`${keyOf(g)}@${g.from}`}
                    sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 1, py: 0.5 }}
                    data-testid="inherited-row"
                    data-principal={nameOf(keyOf(g))}
                  >
                    <Typography sx={{ ...oneLine, flex: '1 1 160px' }}>{nameOf(keyOf(g))}</Typography>
                    <Typography color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                      {t(`files.permissions.levels.${g.level}`)} · {t('files.permissions.fromFolder', { folder: folderName(g.from) })}
                    </Typography>
                  </Box>
                ))}
              </Section>
            )}
            <Divider sx={{ mt: 2 }} />
            <Section title={t('files.permissions.effective')}>
              {answer.effective.map((e) => {
                const who = nameOf(`user:${e.userId}`);
                return (
                  <Box
                    key={e.userId}
                    sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 1, py: 0.5 }}
                    data-testid="effective-row"
                    data-email={who}
                    data-level={e.level}
                  >
                    <Typography sx={{ ...oneLine, flex: '1 1 160px' }} title={who}>
                      {who}
                    </Typography>
                    <Typography sx={{ fontWeight: 500 }}>{t(`files.permissions.levels.${e.level}`)}</Typography>
                    <Typography variant="body2" color="text.secondary" sx={{ flexBasis: '100%', overflowWrap: 'anywhere' }}>
                      {explain(e)}
                    </Typography>
                  </Box>
                );
              })}
            </Section>
          </>
        )}
        <ErrorAlert error={error} testId="permissions-error" />
        {saved && (
          <Typography role="status" color="success.main" sx={{ mt: 1 }} data-testid="permissions-saved">
            {t('files.permissions.saved')}
          </Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} data-testid="permissions-close">
          {t('common.close')}
        </Button>
        <Button variant="contained" disabled={busy || !answer || !changed(answer, draft)} onClick={save} data-testid="permissions-save">
          {t('common.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
