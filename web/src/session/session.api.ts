import { api } from '../api/client';
import type { Locale, SessionInfo, UserInfo } from '../api/types';

export const sessionApi = {
  current: () => api.get<SessionInfo>('/sessions/this/'),
  logout: () => api.delete<void>('/sessions/this/'),
  user: (id: string) => api.get<UserInfo>(`/users/${encodeURIComponent(id)}/`),
  acceptTerms: (id: string) => api.post<void>(`/users/${encodeURIComponent(id)}/terms-accepted/`),
  setLocale: (id: string, locale: Locale) => api.put<UserInfo>(`/users/${encodeURIComponent(id)}/account`, { locale }),
};
