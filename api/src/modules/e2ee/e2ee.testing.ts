import {
  armor,
  createMessage,
  decryptKey,
  encrypt,
  enums,
  generateKey,
  PacketList,
  PublicKeyEncryptedSessionKeyPacket,
  readKey,
  readMessage,
  readPrivateKey,
  SymEncryptedSessionKeyPacket,
} from 'openpgp';

/*
 * What a browser does before an end-to-end upload, done in Node for tests: a passphrase-protected
 * key (Argon2, AEAD), and a file encrypted for it as SEIPDv2, split into its key packets (the
 * entry's `pgpmessage`) and its content (the encrypted data packet, which is what is uploaded).
 */

export const E2EE_CONFIG = { aeadProtect: true } as const;

export const makeKey = async (passphrase: string, email = 'owner@example.com') => {
  const { privateKey, publicKey } = await generateKey({ userIDs: [{ email }], passphrase, format: 'armored', config: E2EE_CONFIG });
  return { privateKey, publicKey };
};

export interface EncryptedFile {
  /** The whole OpenPGP message: key packets, then the encrypted data. */
  readonly whole: Uint8Array;
  /** The key packets alone, armored: the entry's `pgpmessage`. */
  readonly pgpmessage: string;
  /** The encrypted data packet alone: the file's content as uploaded. */
  readonly content: Uint8Array;
}

export const encryptFor = async (armoredPublicKeys: readonly string[], plaintext: Uint8Array, passwords?: string[]): Promise<EncryptedFile> => {
  const encryptionKeys = await Promise.all(armoredPublicKeys.map((armoredKey) => readKey({ armoredKey })));
  const whole = await encrypt({
    message: await createMessage({ binary: plaintext }),
    encryptionKeys,
    ...(passwords ? { passwords } : {}),
    format: 'binary',
    config: E2EE_CONFIG,
  });
  const message = await readMessage({ binaryMessage: whole });
  const keyPackets = new PacketList();
  for (const p of message.packets) {
    if (p instanceof PublicKeyEncryptedSessionKeyPacket || p instanceof SymEncryptedSessionKeyPacket) keyPackets.push(p);
  }
  const keyBytes = keyPackets.write() as Uint8Array;
  if (!Buffer.from(whole.subarray(0, keyBytes.length)).equals(Buffer.from(keyBytes))) throw new Error('the key packets do not lead the message');
  return { whole, pgpmessage: armor(enums.armor.message, keyBytes), content: whole.subarray(keyBytes.length) };
};

/** The armored private key unlocked with this passphrase (rejects when it does not unlock it). */
export const unlockKey = async (armoredKey: string, passphrase: string) => decryptKey({ privateKey: await readPrivateKey({ armoredKey }), passphrase });
