import { useSyncExternalStore } from 'react';

export interface Notice {
  id: number;
  severity: 'info' | 'success' | 'warning' | 'error';
  /** i18n key and its values. */
  key: string;
  values?: Record<string, unknown>;
  /** A button on the notice (Undo): its i18n key and what it does; the notice closes when it is pressed. */
  action?: { key: string; run: () => void };
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
  /** Queues a notice and answers its id (to dismiss it early). */
  push(notice: Omit<Notice, 'id'>): number {
    const id = nextId++;
    notices = [...notices, { ...notice, id }];
    emit();
    return id;
  },
  /** Presses a notice's button: its action runs once and the notice closes. */
  act(id: number) {
    const notice = notices.find((n) => n.id === id);
    if (!notice) return;
    noticeStore.dismiss(id);
    notice.action?.run();
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
