/**
 * The object-access token a share link answers after a good password or e-mail (the
 * `X-Object-Access` response header), kept per share for this browser tab (sessionStorage, so it
 * dies with the tab) and sent back instead of the password on later calls.
 */
export interface TokenStore {
  get(linkId: string): string | null;
  set(linkId: string, token: string): void;
  clear(linkId: string): void;
}

const KEY_PREFIX = 'axel.share-access.';

type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const sessionStorageOrNull = (): StorageLike | null => {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
};

export const createTokenStore = (storage: StorageLike | null = sessionStorageOrNull()): TokenStore => {
  const memory = new Map<string, string>();
  return {
    get: (linkId) => {
      try {
        return storage?.getItem(KEY_PREFIX + linkId) ?? memory.get(linkId) ?? null;
      } catch {
        return memory.get(linkId) ?? null;
      }
    },
    set: (linkId, token) => {
      memory.set(linkId, token);
      try {
        storage?.setItem(KEY_PREFIX + linkId, token);
      } catch {
        // A full or disabled storage keeps the token for this page only.
      }
    },
    clear: (linkId) => {
      memory.delete(linkId);
      try {
        storage?.removeItem(KEY_PREFIX + linkId);
      } catch {
        // Nothing stored there.
      }
    },
  };
};

export const shareTokens = createTokenStore();
