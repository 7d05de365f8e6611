import { api } from '../../api/client';

export interface E2eeSettings {
  hasE2EEAccess: boolean;
  passphraseSet: boolean;
  e2eePrivateKey: string | null;
  e2eePublicKey: string | null;
  e2eePassphraseHint: string | null;
  e2eeKeyFingerprint: string | null;
  encryptionDefault: boolean;
  e2eeEnabledGlobalDefault: boolean;
}

const base = (userId: string) => `/users/${encodeURIComponent(userId)}/e2ee`;

export const e2eeApi = {
  get: (userId: string) => api.get<E2eeSettings>(`${base(userId)}/`),
  setKey: (userId: string, body: { mode: 'set' | 'change' | 'reset'; privateKey: string; hint: string }) => api.put<E2eeSettings>(`${base(userId)}/key`, body),
  setDefaults: (userId: string, body: { encryptionDefault?: boolean; e2eeEnabledGlobalDefault?: boolean }) =>
    api.put<E2eeSettings>(`${base(userId)}/settings`, body),
};
