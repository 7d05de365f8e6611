import type { SessionTimeout } from '@axel/domain/accounts/accounts.validation';
import { api } from '../../api/client';
import type { Profile, UserInfo } from '../../api/types';

const user = (id: string) => `/users/${encodeURIComponent(id)}`;

export const settingsApi = {
  profile: (id: string) => api.get<Profile>(`${user(id)}/profile`),
  saveProfile: (id: string, profile: Partial<Profile>) => api.put<Profile>(`${user(id)}/profile`, profile),
  uploadAvatar: (id: string, file: Blob, contentType: string) =>
    api.request<{ avatarUrl: string }>('POST', `${user(id)}/avatar`, { rawBody: file, contentType }),
  saveAccount: (id: string, body: { username?: string; sessionTimeout?: SessionTimeout }) => api.put<UserInfo>(`${user(id)}/account`, body),
  changePassword: (id: string, body: { currentPassword: string; password: string; passwordConfirmation: string }) =>
    api.put<void>(`${user(id)}/password`, body),
  changeEmail: (id: string, body: { newEmail: string; newEmailConfirmation: string; password: string }) => api.put<void>(`${user(id)}/email`, body),
  deleteAccount: (id: string, body: { confirmation: string; password: string }) => api.delete<void>(`${user(id)}/`, body),
  confirmEmailChange: (token: string) => api.post<{ email: string }>(`/change-email-confirmations/${encodeURIComponent(token)}`),
};
