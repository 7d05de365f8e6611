import { useSyncExternalStore } from 'react';
import { useLoad } from '../../components/useLoad';
import { devicesApi, type Drive } from './devices.api';

/** Bumped when the user binds, unbinds or removes a CloudLocker: whatever lists them reads again. */
let version = 0;
const listeners = new Set<() => void>();

export const notifyDrivesChanged = () => {
  version++;
  for (const l of listeners) l();
};

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => {
    listeners.delete(l);
  };
};

/** The signed-in user's CloudLockers; an empty list while unknown or when the call fails. */
export const useDrives = (userId: string | undefined): Drive[] => {
  const changes = useSyncExternalStore(subscribe, () => version);
  return useLoad(userId ? () => devicesApi.drives(userId) : null, [userId, changes]).data ?? [];
};
