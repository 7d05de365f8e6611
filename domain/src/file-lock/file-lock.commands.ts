import type { Command } from '../shared/decider';

/**
 * What a typed code proved, worked out by the caller (the decider does no I/O): for an e-mail code
 * its hash, compared here with the outstanding one; for an authenticator code the time step it
 * matched, or null when it matched none.
 */
export type LockCodeProof = { readonly method: 'email'; readonly codeHash: string } | { readonly method: 'totp'; readonly totpStep: number | null };

/** An item and its folders, the item first and then up to the root: a lock on any of them covers it. */
export type ItemChain = readonly string[];

export type FileLockCommand =
  | Command<'IssueLockCode', { userId: string; codeHash: string }>
  | Command<'LockItem', { itemId: string; userId: string; proof: LockCodeProof }>
  | Command<'UnlockItem', { itemId: string; userId: string; proof: LockCodeProof }>
  | Command<'GrantLockAccess', { itemId: string; chain: ItemChain; userId: string; sessionKey: string; proof: LockCodeProof }>
  | Command<'OpenItem', { itemId: string; chain: ItemChain; userId: string; sessionKey: string; action: string }>;
