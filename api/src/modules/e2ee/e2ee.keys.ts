import { E2eeErrors, DomainError, type CheckedKey } from '@axel/domain';
import { readPrivateKey } from 'openpgp';

/**
 * Reads an armored private key as the browser sends it: an OpenPGP private key whose every secret
 * part is locked by the passphrase (the server must never receive one it could use), with the
 * public key and fingerprint derived from it.
 */
export const checkedPrivateKey = async (armoredKey: string): Promise<CheckedKey> => {
  let key: Awaited<ReturnType<typeof readPrivateKey>>;
  try {
    key = await readPrivateKey({ armoredKey });
  } catch {
    throw new DomainError(E2eeErrors.invalidKey);
  }
  // true when the primary key or any subkey is usable without the passphrase
  if (key.isDecrypted()) throw new DomainError(E2eeErrors.invalidKey, { reason: 'unprotected' });
  return { privateKey: key.armor(), publicKey: key.toPublic().armor(), fingerprint: key.getFingerprint() };
};
