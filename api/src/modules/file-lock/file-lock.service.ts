import {
  codeWasRejected,
  DomainError,
  FileLockErrors,
  fileLockDecider,
  fileLockStreamName,
  type FileLockCommand,
  type FileLockState,
  type LockCodeProof,
  type LockMethod,
} from '@axel/domain';
import { lockedChainsOf, storageHasLocks } from '@axel/projections/file-lock/file-lock.queries';
import { storagesOfItems } from '@axel/projections/storage/storage.queries';
import type { CommandContext } from '@axel/platform';
import type { SessionRecord } from '../../http/sessions';
import { cachedStreamCommands } from '../../cached-stream';
import type { AppContext } from '../../context';
import { randomCode, sha256 } from '../../secrets';
import { mailUser } from '../accounts/use-cases/account-mail';
import { accountState } from '../accounts/use-cases/account-store';
import { verifyTotp } from '../accounts/totp';
import { parentsOf } from '../files/storage.service';

/*
 * The two-factor lock (spec §4 File 2FA lock): a verification code of the account's own second
 * factor (its authenticator app, else a code mailed for the purpose, valid 10 minutes) locks and
 * unlocks an item, and opens a locked one for the session that typed it. Every opening of a locked
 * item, and every code typed, is an event of the storage's lock stream: the activity log.
 */

const runLockCommand = cachedStreamCommands(fileLockDecider);

/** The session as the lock stream names it: a keyed fingerprint, so the log never holds a usable id. */
export const lockSessionKey = (ctx: AppContext, session: SessionRecord): string => ctx.secrets.mac(`file-lock-session\u0000${session.id}`);

/** The account's choice of second factor: its authenticator when two-factor sign-in uses one, else an e-mail code. */
export const lockMethodOf = async (ctx: AppContext, userId: string): Promise<LockMethod> => {
  const account = await accountState(ctx, userId);
  return account.twoFactor.enabled && account.twoFactor.method === 'totp' && account.twoFactor.totpSecretCiphertext ? 'totp' : 'email';
};

/** What the typed code proves, for the decider (which compares, counts and expires). */
export const lockCodeProof = async (ctx: AppContext, userId: string, code: string): Promise<LockCodeProof> => {
  const account = await accountState(ctx, userId);
  const sealed = account.twoFactor.enabled && account.twoFactor.method === 'totp' ? account.twoFactor.totpSecretCiphertext : null;
  if (sealed) return { method: 'totp', totpStep: await verifyTotp(ctx.secrets.decrypt(sealed), code, ctx.now()) };
  return { method: 'email', codeHash: sha256(code) };
};

export const runFileLock = async (
  ctx: AppContext,
  storageId: string,
  command: Omit<FileLockCommand, 'metadata'>,
  actor: CommandContext,
): Promise<{ state: FileLockState; events: readonly { type: string }[] }> => {
  const result = await runLockCommand(ctx, fileLockStreamName(storageId), command, actor, (full, state) =>
    fileLockDecider.decide(full as FileLockCommand, state),
  );
  if (result.position) await ctx.caughtUp(result.position);
  // the wrong code is on record; the caller is told as a form error
  if (codeWasRejected(result.events)) throw new DomainError(FileLockErrors.incorrectCode);
  return result;
};

/** Mails a lock code when the account's second factor is e-mail; says which factor to type either way. */
export const sendLockCode = async (ctx: AppContext, userId: string, storageId: string, actor: CommandContext): Promise<{ method: LockMethod }> => {
  const method = await lockMethodOf(ctx, userId);
  if (method === 'totp') return { method };
  const account = await accountState(ctx, userId);
  const code = randomCode();
  await runFileLock(ctx, storageId, { type: 'IssueLockCode', data: { userId, codeHash: sha256(code) } }, actor);
  await mailUser(ctx, account.email, 'two-factor-code', account.locale, { code }, userId, actor);
  return { method };
};

/** An item and its folders, the item first and then up to the root. */
export const chainOf = async (ctx: AppContext, storageId: string, itemId: string): Promise<string[]> => [
  itemId,
  ...(await parentsOf(ctx, storageId, itemId)).map((p) => p.id).reverse(),
];

/**
 * Every id whose lock covers a request on these items of one storage: the items' own chains, and
 * the chain of each locked item inside them (an archive of a folder carries the files under it).
 */
const coverOf = async (ctx: AppContext, storageId: string, itemIds: readonly string[]): Promise<string[]> => {
  const locked = await lockedChainsOf(ctx.pool, storageId);
  if (!locked.length) return [];
  const wanted = new Set(itemIds);
  const ids = new Set<string>();
  for (const id of itemIds) for (const c of await chainOf(ctx, storageId, id)) ids.add(c);
  for (const l of locked) if (l.chain.some((c) => wanted.has(c))) for (const c of l.chain) ids.add(c);
  const lockedIds = new Set(locked.map((l) => l.item_id));
  return [...ids].some((id) => lockedIds.has(id)) ? [...ids] : [];
};

export interface LockedOpening {
  readonly userId: string;
  readonly session: SessionRecord;
  readonly actor: CommandContext;
  /** What is done with the items: open, preview, download, share, archive, copy, move, trash, delete. */
  readonly action: string;
}

/**
 * Lets the request go on when nothing over or under the items is locked, or when this session holds
 * a live grant for every lock (the opening is recorded and keeps the grants alive); otherwise 5102.
 */
export const openItems = async (ctx: AppContext, storageId: string, itemIds: readonly string[], opening: LockedOpening): Promise<void> => {
  if (!itemIds.length || !(await storageHasLocks(ctx.pool, storageId))) return;
  const chain = await coverOf(ctx, storageId, itemIds);
  if (!chain.length) return;
  const sessionKey = lockSessionKey(ctx, opening.session);
  await runFileLock(
    ctx,
    storageId,
    { type: 'OpenItem', data: { itemId: itemIds[0]!, chain, userId: opening.userId, sessionKey, action: opening.action } },
    opening.actor,
  );
};

/** Gives this session a grant for every lock over (or under) the items, with a fresh code. */
export const grantItems = async (
  ctx: AppContext,
  storageId: string,
  itemIds: readonly string[],
  code: string,
  opening: Omit<LockedOpening, 'action'>,
): Promise<string[]> => {
  const chain = await coverOf(ctx, storageId, itemIds);
  if (!chain.length) return [];
  const proof = await lockCodeProof(ctx, opening.userId, code);
  const sessionKey = lockSessionKey(ctx, opening.session);
  const result = await runFileLock(
    ctx,
    storageId,
    { type: 'GrantLockAccess', data: { itemId: itemIds[0]!, chain, userId: opening.userId, sessionKey, proof } },
    opening.actor,
  );
  return chain.filter((id) => result.state.locks.has(id));
};

/** `openItems` for the user's own items of any of their storages (shares and tasks name items only). */
export const openOwnItems = async (ctx: AppContext, itemIds: readonly string[], opening: LockedOpening): Promise<void> => {
  for (const [storageId, ids] of await itemsByStorage(ctx, opening.userId, itemIds)) await openItems(ctx, storageId, ids, opening);
};

export const grantOwnItems = async (ctx: AppContext, itemIds: readonly string[], code: string, opening: Omit<LockedOpening, 'action'>) => {
  for (const [storageId, ids] of await itemsByStorage(ctx, opening.userId, itemIds)) await grantItems(ctx, storageId, ids, code, opening);
};

const itemsByStorage = async (ctx: AppContext, userId: string, itemIds: readonly string[]): Promise<Map<string, string[]>> => {
  const byStorage = new Map<string, string[]>();
  for (const r of await storagesOfItems(ctx.pool, userId, itemIds)) byStorage.set(r.storage_id, [...(byStorage.get(r.storage_id) ?? []), r.id]);
  return byStorage;
};
