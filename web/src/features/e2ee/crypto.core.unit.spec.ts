import { describe, expect, it } from 'vitest';
import { changePassphrase, decryptFile, encryptFile, generateProtectedKey } from './crypto.core';

describe('the end-to-end key operations', () => {
  it('a changed passphrase keeps the key: a file encrypted before still opens, with the new passphrase only', async () => {
    const key = await generateProtectedKey('first passphrase', 'me@example.com');
    const plaintext = new TextEncoder().encode('a file made before the change');
    const file = await encryptFile([key.publicKey], plaintext);
    expect(file.pgpmessage).toContain('BEGIN PGP MESSAGE');
    expect(Buffer.from(file.content).includes(Buffer.from('made before'))).toBe(false);

    await expect(changePassphrase(key.privateKey, 'not the passphrase', 'second passphrase')).rejects.toMatchObject({ code: 'INCORRECT_CURRENT_PASSPHRASE' });
    const changed = await changePassphrase(key.privateKey, 'first passphrase', 'second passphrase');
    expect(Buffer.from(await decryptFile(changed, 'second passphrase', file.pgpmessage, file.content)).equals(Buffer.from(plaintext))).toBe(true);
    await expect(decryptFile(changed, 'first passphrase', file.pgpmessage, file.content)).rejects.toMatchObject({ code: 'WRONG_PASSPHRASE' });
  }, 30_000);

  it('after a reset (a new key) a file encrypted for the old key says why it cannot be opened', async () => {
    const old = await generateProtectedKey('old passphrase', 'me@example.com');
    const file = await encryptFile([old.publicKey], new TextEncoder().encode('old file'));
    const fresh = await generateProtectedKey('new passphrase', 'me@example.com');
    await expect(decryptFile(fresh.privateKey, 'new passphrase', file.pgpmessage, file.content)).rejects.toMatchObject({ code: 'NOT_FOR_THIS_KEY' });
  }, 30_000);
});
