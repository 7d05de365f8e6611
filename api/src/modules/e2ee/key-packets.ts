import { DomainError, StorageErrors } from '@axel/domain';
import { PublicKeyEncryptedSessionKeyPacket, readMessage, SymEncryptedSessionKeyPacket } from 'openpgp';

/*
 * An end-to-end file's key packets (spec §3 Entry `pgpmessage`): an armored OpenPGP message made of
 * session-key packets only (one per reader's public key, one per share passphrase), kept apart from
 * the file's content, which is the encrypted data packet alone. The server never holds a key that
 * opens them; it checks their shape, and puts them back in front of the content where a whole
 * OpenPGP message is handed out (an archive: see docs/e2ee.md).
 */

const isKeyPacket = (p: unknown) => p instanceof PublicKeyEncryptedSessionKeyPacket || p instanceof SymEncryptedSessionKeyPacket;

/** The key packets' bytes, or INVALID (400) when the text is not an armored message of key packets only. */
export const keyPacketBytes = async (armored: string): Promise<Uint8Array> => {
  try {
    const message = await readMessage({ armoredMessage: armored });
    const packets = [...message.packets];
    if (packets.length > 0 && packets.every(isKeyPacket)) return message.packets.write() as Uint8Array;
  } catch {
    // not OpenPGP at all: refused below
  }
  throw new DomainError(StorageErrors.e2eeKeyPackets, { field: 'pgpmessage' });
};
