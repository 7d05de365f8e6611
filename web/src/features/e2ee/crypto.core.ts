import {
  armor,
  createMessage,
  decrypt,
  decryptKey,
  encrypt,
  encryptKey,
  enums,
  generateKey,
  PacketList,
  type PrivateKey,
  PublicKeyEncryptedSessionKeyPacket,
  readKey,
  readMessage,
  readPrivateKey,
  SymEncryptedSessionKeyPacket,
} from 'openpgp';

/*
 * The key operations of end-to-end encryption (spec rules §3: generate, re-protect with a new
 * passphrase, encrypt for recipients, decrypt). They run in the crypto worker (crypto.worker.ts)
 * behind the facade in crypto.ts; the passphrase and the unlocked key never leave it.
 */

/** SEIPDv2 messages and AEAD key protection with Argon2 (openpgp's aeadProtect). */
const CONFIG = { aeadProtect: true } as const;

export class CryptoFailure extends Error {
  constructor(
    readonly code: 'WRONG_PASSPHRASE' | 'INCORRECT_CURRENT_PASSPHRASE' | 'NOT_FOR_THIS_KEY' | 'KEY_LOCKED' | 'NOT_A_MESSAGE',
    message: string,
  ) {
    super(message);
  }
}

export const generateProtectedKey = async (passphrase: string, email: string) => {
  const { privateKey, publicKey } = await generateKey({ userIDs: [{ email }], passphrase, format: 'armored', config: CONFIG });
  return { privateKey, publicKey };
};

const unlock = async (armoredKey: string, passphrase: string, code: CryptoFailure['code']) => {
  const privateKey = await readPrivateKey({ armoredKey });
  try {
    return await decryptKey({ privateKey, passphrase });
  } catch {
    throw new CryptoFailure(code, code === 'WRONG_PASSPHRASE' ? 'Wrong passphrase' : 'Incorrect current passphrase');
  }
};

/** The same key re-protected with a new passphrase: every file encrypted for it stays readable. */
export const changePassphrase = async (armoredKey: string, current: string, next: string): Promise<string> => {
  const unlocked = await unlock(armoredKey, current, 'INCORRECT_CURRENT_PASSPHRASE');
  return (await encryptKey({ privateKey: unlocked, passphrase: next, config: CONFIG })).armor();
};

/** A file for these readers: its key packets (the entry's pgpmessage) apart from its content (what is uploaded). */
export const encryptFile = async (armoredPublicKeys: readonly string[], data: Uint8Array) => {
  const encryptionKeys = await Promise.all(armoredPublicKeys.map((armoredKey) => readKey({ armoredKey })));
  const whole = await encrypt({ message: await createMessage({ binary: data }), encryptionKeys, format: 'binary', config: CONFIG });
  const packets = new PacketList();
  for (const p of (await readMessage({ binaryMessage: whole })).packets) {
    if (p instanceof PublicKeyEncryptedSessionKeyPacket || p instanceof SymEncryptedSessionKeyPacket) packets.push(p);
  }
  const keyBytes = packets.write() as Uint8Array;
  return { pgpmessage: armor(enums.armor.message, keyBytes), content: whole.subarray(keyBytes.length) };
};

/** A file's plaintext from its key packets and content, with the private key and its passphrase. */
export const decryptFile = async (armoredKey: string, passphrase: string, pgpmessage: string, content: Uint8Array): Promise<Uint8Array> => {
  const key = await unlock(armoredKey, passphrase, 'WRONG_PASSPHRASE');
  const keyPackets = await readMessage({ armoredMessage: pgpmessage });
  const keyBytes = keyPackets.packets.write() as Uint8Array;
  const whole = new Uint8Array(keyBytes.length + content.length);
  whole.set(keyBytes);
  whole.set(content, keyBytes.length);
  try {
    const { data } = await decrypt({ message: await readMessage({ binaryMessage: whole }), decryptionKeys: key, format: 'binary' });
    return data as Uint8Array;
  } catch {
    throw new CryptoFailure('NOT_FOR_THIS_KEY', 'This file was encrypted for another key (before a passphrase reset) and cannot be opened');
  }
};

/**
 * The unlocker's key: unlocked once with the passphrase and kept in this (the worker's) scope, so
 * each message after it is decrypted without asking again; locking forgets it.
 */
let sessionKey: PrivateKey | null = null;

export const unlockSessionKey = async (armoredKey: string, passphrase: string): Promise<string> => {
  sessionKey = null;
  sessionKey = await unlock(armoredKey, passphrase, 'WRONG_PASSPHRASE');
  return sessionKey.getFingerprint();
};

export const lockSessionKey = async (): Promise<void> => {
  sessionKey = null;
};

/**
 * A whole OpenPGP message (key packets, then the SEIPDv2 content) decrypted as it streams in, with
 * the unlocked session key: each AEAD chunk is authenticated before its plaintext is passed on, and a
 * damaged chunk errors the stream.
 */
export const decryptMessageStream = async (message: ReadableStream<Uint8Array>): Promise<ReadableStream<Uint8Array>> => {
  if (!sessionKey) throw new CryptoFailure('KEY_LOCKED', 'Enter your passphrase first');
  let read: Awaited<ReturnType<typeof readMessage>>;
  try {
    read = await readMessage({ binaryMessage: message });
  } catch {
    throw new CryptoFailure('NOT_A_MESSAGE', 'This file is not an encrypted AXEL file');
  }
  try {
    const { data } = await decrypt({ message: read, decryptionKeys: sessionKey, format: 'binary' });
    return data as unknown as ReadableStream<Uint8Array>;
  } catch {
    throw new CryptoFailure('NOT_FOR_THIS_KEY', 'This file was encrypted for another key (before a passphrase reset) and cannot be opened');
  }
};

export type CryptoOps = {
  generate: typeof generateProtectedKey;
  changePassphrase: typeof changePassphrase;
  encryptFile: typeof encryptFile;
  decryptFile: typeof decryptFile;
  unlockSessionKey: typeof unlockSessionKey;
  lockSessionKey: typeof lockSessionKey;
  decryptMessageStream: typeof decryptMessageStream;
};
export const cryptoOps: CryptoOps = {
  generate: generateProtectedKey,
  changePassphrase,
  encryptFile,
  decryptFile,
  unlockSessionKey,
  lockSessionKey,
  decryptMessageStream,
};

export type CryptoRequest = { [K in keyof CryptoOps]: { id: number; op: K; args: Parameters<CryptoOps[K]> } }[keyof CryptoOps];
export type CryptoReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; code: string; message: string };
