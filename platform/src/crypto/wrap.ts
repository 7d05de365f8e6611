import { open, seal } from './aead';

/*
 * Envelope encryption: data is sealed under a data key of its own (a file's, a person's), and the data
 * key is stored wrapped by a key-encryption key the server holds (a master key). Destroying a wrapped
 * key makes everything sealed under it unreadable, wherever copies remain; a new master key re-wraps
 * the data keys without touching the data.
 *
 * A wrapped key is the sealed layout of aead.ts (nonce | wrapped key | tag), bound to `aad`: say which
 * key it is and under which master key, so a wrapped key copied to another row does not unwrap.
 */

export const wrapKey = (wrappingKey: Uint8Array, key: Uint8Array, aad: Uint8Array): Buffer => seal(wrappingKey, key, aad);

/** Throws when `wrapped` was not wrapped by `wrappingKey` for this `aad`, or was changed. */
export const unwrapKey = (wrappingKey: Uint8Array, wrapped: Uint8Array, aad: Uint8Array): Buffer => open(wrappingKey, wrapped, aad);
