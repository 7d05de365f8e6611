import { useLoad } from '../../components/useLoad';
import { membersApi } from '../members/members.api';
import { filesApi, type Storage } from './files.api';

/** The storage types whose items carry folder permissions (spec §3). */
const PERMISSION_TYPES = new Set(['online', 'group']);

/**
 * The team side of the file browser: the team storages a joined member reaches, and whether the
 * person manages the team that owns a storage (its admin or a co-admin), who alone set its folder
 * permissions (spec §6).
 */
export const useTeamStorage = (userId: string | undefined) => {
  const teamStorages = useLoad(userId ? () => filesApi.teamStorages(userId).catch((): Storage[] => []) : null, [userId]);
  const role = useLoad(userId ? () => membersApi.role(userId).catch(() => null) : null, [userId]);
  const mine = role.data;
  const managesTeamOf = (storage: Storage) =>
    Boolean(
      mine?.teamId &&
        (mine.role === 'admin' || mine.role === 'co_admin_member') &&
        mine.status === 'joined' &&
        storage.ownerId === mine.ownerId &&
        PERMISSION_TYPES.has(storage.type),
    );
  return {
    teamStorages: teamStorages.data ?? [],
    teamStoragesLoaded: teamStorages.data !== undefined,
    teamId: mine?.teamId ?? null,
    managesTeamOf,
  };
};
