import { createHash, createHmac } from 'node:crypto';

/*
 * Keys made from other keys. Values computed with these are stored or handed out (key ids in
 * `file_keys.master_key_id`, MACs in links and tokens), so the constructions never change: a new
 * one gets a new label.
 */

/**
 * A key of its own for one purpose, HMAC-SHA256(key, purpose): nothing made with it can be mistaken
 * for material of the key it comes from, nor of a sibling with another purpose.
 */
export const deriveKey = (key: Uint8Array, purpose: string): Buffer => createHmac('sha256', key).update(purpose).digest();

/** HMAC-SHA256 of `value` under `key` (a key derived for the purpose). */
export const hmac = (key: Uint8Array, value: string | Uint8Array): Buffer => createHmac('sha256', key).update(value).digest();

/**
 * A public name for a key, 16 hex digits of SHA-256(label \0 key): which master key wrapped a data key
 * can be stored and logged without the key.
 */
export const keyFingerprint = (label: string, key: Uint8Array): string => createHash('sha256').update(`${label}\0`).update(key).digest('hex').slice(0, 16);
