import type { TwoFactorMethod } from '@axel/domain/accounts/accounts.validation';
import { api } from '../../api/client';
import type { UserInfo } from '../../api/types';

export interface SsoProvider {
  type: string;
  authorizeUrl: string;
}

export type SsoAnswer = { user: UserInfo } | { twoFactorRequired: true; method: TwoFactorMethod; twoFactorToken: string };

export type SsoRequest = { code: string; state: string } | { code: string; twoFactorToken: string };

/** `GET /sso/`: the providers this server is configured for. */
export const ssoProviders = async (): Promise<SsoProvider[]> => (await api.get<{ data: SsoProvider[] }>('/sso/')).data;

/** `POST /sso/{type}`: the provider's code and state, or the second factor with the sign-in's token. */
export const completeSso = (type: string, request: SsoRequest) => api.post<SsoAnswer>(`/sso/${encodeURIComponent(type)}`, request);
