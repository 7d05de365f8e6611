import { useGetIdentity, usePermissions } from 'react-admin';
import type { StaffLike } from './programRules';

/** Who is signed in and which staff features they hold, for the auto-pay buttons. */
export const useStaffFeatures = (): StaffLike => {
  const { identity } = useGetIdentity();
  const { permissions } = usePermissions();
  return { id: identity?.id, features: (permissions as { features?: string[] } | undefined)?.features ?? [] };
};
