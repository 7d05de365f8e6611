import { fromPromise } from 'xstate';
import { api } from '../../api/client';
import type { AppNotification } from '../../api/types';

const base = (userId: string) => `/users/${encodeURIComponent(userId)}/notifications/`;

export const notificationsApi = {
  count: (userId: string) => api.get<{ count: number }>(`${base(userId)}count/`),
  page: (userId: string, perPage: number, startFrom?: string) =>
    api.get<{ data: AppNotification[] }>(base(userId), { perPage, startFrom }).then((r) => r.data ?? []),
  markSeen: (userId: string, ids: string[]) => api.post<void>(base(userId), { ids }),
  remove: (userId: string, ids: string[]) => api.delete<void>(base(userId), { ids }),
};

export const notificationsActors = (userId: string) => ({
  fetchPage: fromPromise<AppNotification[], { startFrom?: string; perPage: number }>(({ input }) =>
    notificationsApi.page(userId, input.perPage, input.startFrom),
  ),
  markSeen: fromPromise<void, { ids: string[] }>(({ input }) => notificationsApi.markSeen(userId, input.ids)),
  remove: fromPromise<void, { ids: string[] }>(({ input }) => notificationsApi.remove(userId, input.ids)),
});
