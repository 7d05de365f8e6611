import type { TwoFactorMethod } from '@axel/domain/accounts/accounts.validation';
import { fromPromise } from 'xstate';
import { api } from '../../api/client';
import type { TotpEnrolment, UserInfo } from '../../api/types';

const base = (userId: string) => `/users/${encodeURIComponent(userId)}/two-factor`;

export const twoFactorApi = {
  startTotp: (userId: string) => api.post<TotpEnrolment>(`${base(userId)}/totp`),
  sendEmailCode: (userId: string) => api.post<void>(`${base(userId)}/email-code`),
  enable: (userId: string, method: TwoFactorMethod, code: string) => api.post<UserInfo>(`${base(userId)}/enable`, { method, code }),
  disable: (userId: string, code: string) => api.post<UserInfo>(`${base(userId)}/disable`, { code }),
  requestReset: (email: string, password: string) => api.post<void>('/two-factor-resets/', { email, password }),
  checkReset: (token: string) => api.get<void>(`/two-factor-resets/${encodeURIComponent(token)}`),
  confirmReset: (token: string) => api.post<void>(`/two-factor-resets/${encodeURIComponent(token)}`),
};

export const reset2faConfirmActors = {
  checkLink: fromPromise<void, { token: string }>(({ input }) => twoFactorApi.checkReset(input.token)),
  confirm: fromPromise<void, { token: string }>(({ input }) => twoFactorApi.confirmReset(input.token)),
};

export const twoFactorActors = (userId: string) => ({
  startTotp: fromPromise<TotpEnrolment, void>(() => twoFactorApi.startTotp(userId)),
  sendEmailCode: fromPromise<void, void>(() => twoFactorApi.sendEmailCode(userId)),
  enable: fromPromise<UserInfo, { method: TwoFactorMethod; code: string }>(({ input }) => twoFactorApi.enable(userId, input.method, input.code)),
  disable: fromPromise<UserInfo, { code: string }>(({ input }) => twoFactorApi.disable(userId, input.code)),
});
