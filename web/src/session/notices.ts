import { useSyncExternalStore } from 'react';

export interface Notice {
  id: number;
  severity: 'info' | 'success' | 'warning' | 'error';
  /** i18n key and its values. */
  key: string;
  values?: Record<string, unknown>;
}

type Listener = () => void;
let notices: Notice[] = [];
let nextId = 1;
const listeners = new Set<Listener>();
const emit = () => {
  for (const l of listeners) l();
};

/** App-wide snackbar messages (inactivity, unauthorized, offline, saved...). */
export const noticeStore = {
  push(notice: Omit<Notice, 'id'>) {
    notices = [...notices, { ...notice, id: nextId++ }];
    emit();
  },
  dismiss(id: number) {
    notices = notices.filter((n) => n.id !== id);
    emit();
  },
  get: () => notices,
  subscribe(l: Listener) {
    listeners.add(l);
    return () => listeners.delete(l);
  },
};

export const useNotices = () => useSyncExternalStore(noticeStore.subscribe, noticeStore.get, noticeStore.get);
