import { describe, expect, it } from 'vitest';
import { readMessage } from 'openpgp';
import { changePassphrase, decryptFile, decryptMessageStream, encryptFile, generateProtectedKey, lockSessionKey, unlockSessionKey } from './crypto.core';

const streamOf = (bytes: Uint8Array, chunk = 1000) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.length; at += chunk) controller.enqueue(bytes.slice(at, at + chunk));
      controller.close();
    },
  });
const collect = async (stream: ReadableStream<Uint8Array>) => {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
  return Buffer.concat(chunks);
};

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

  it('the unlocker key: a wrong passphrase is refused, then whole messages stream out with the key unlocked once', async () => {
    const key = await generateProtectedKey('unlock passphrase', 'me@example.com');
    const plaintext = new Uint8Array(300_000).map((_, i) => (i * 7) % 251);
    const file = await encryptFile([key.publicKey], plaintext);
    const keyPackets = (await readMessage({ armoredMessage: file.pgpmessage })).packets.write() as Uint8Array;
    const whole = Buffer.concat([keyPackets, file.content]);

    await lockSessionKey();
    await expect(decryptMessageStream(streamOf(whole))).rejects.toMatchObject({ code: 'KEY_LOCKED' });
    await expect(unlockSessionKey(key.privateKey, 'Unlock passphrase')).rejects.toMatchObject({ code: 'WRONG_PASSPHRASE' });
    await unlockSessionKey(key.privateKey, 'unlock passphrase');
    expect((await collect(await decryptMessageStream(streamOf(whole)))).equals(Buffer.from(plaintext))).toBe(true);
    await expect(decryptMessageStream(streamOf(new TextEncoder().encode('not a message at all')))).rejects.toMatchObject({ code: 'NOT_A_MESSAGE' });
    await lockSessionKey();
  }, 30_000);
});
