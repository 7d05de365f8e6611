import {
  AccountErrors,
  DomainError,
  emailReservationDecider,
  emailReservationStreamName,
  normalizeEmail,
  userDecider,
  userStreamName,
  usernameReservationDecider,
  usernameReservationStreamName,
  type Command,
  type ReservationState,
  type UserCommand,
  type UserState,
  type UserWithAccount,
} from '@axel/domain';
import { handleCommand, loadState, type CommandContext } from '@axel/platform';
import type { AppContext } from '../../../context';
import type { RequestMeta } from '../../../http/request-meta';

// What the accounts' use cases read and write: the user's stream and the address and username reservations.

/** The account exists: registered and not purged (a deleted account exists until its purge). */
export const hasAccountState = (s: UserState): s is UserWithAccount => s.status !== 'unregistered' && s.status !== 'purged';

/** A command stamped with the app's clock. */
const accountCommand = <T extends string, D>(ctx: AppContext, type: T, data: D): Command<T, D> => ({ type, data, metadata: { now: ctx.now() } });

/** A user command stamped with the app's clock, typed by its name. */
export const userCommand = <T extends UserCommand['type']>(ctx: AppContext, type: T, data: Extract<UserCommand, { type: T }>['data']) =>
  accountCommand(ctx, type, data) as unknown as Extract<UserCommand, { type: T }>;

export const commandContext = (meta: RequestMeta, actor: { id: string | null; kind: CommandContext['actorKind'] }): CommandContext => ({
  actorId: actor.id,
  actorKind: actor.kind,
  ip: meta.ip,
  userAgent: meta.userAgent,
  client: meta.client,
  correlationId: meta.correlationId,
});

export const runUser = (ctx: AppContext, userId: string, command: UserCommand, cc: CommandContext) =>
  handleCommand(ctx.commands, userDecider, userStreamName(userId), command, cc);

export const userState = async (ctx: AppContext, userId: string): Promise<UserState> =>
  (await loadState(ctx.commands, userDecider, userStreamName(userId))).state;

/** The user's state when the account exists (not yet purged), else USER_NOT_FOUND. */
export const accountState = async (ctx: AppContext, userId: string): Promise<UserWithAccount> => {
  const state = await userState(ctx, userId);
  if (!hasAccountState(state)) throw new DomainError(AccountErrors.userNotFound);
  return state;
};

/**
 * Reservation streams are named by a keyed hash: stream names stay in the log for ever, and a
 * plain hash of an address or username could be reversed by guessing.
 */
const emailStream = (ctx: AppContext, email: string) => emailReservationStreamName(ctx.secrets.mac(`email:${normalizeEmail(email)}`));

const usernameStream = (ctx: AppContext, username: string) => usernameReservationStreamName(ctx.secrets.mac(`username:${username}`));

/** The account an address belongs to, read from its reservation stream (no read-model lag). */
export const userIdByEmail = async (ctx: AppContext, email: string): Promise<string | null> => {
  const { state } = await loadState(ctx.commands, emailReservationDecider, emailStream(ctx, email));
  return (state as ReservationState).status === 'held' ? (state as { userId: string }).userId : null;
};

/** Whether the account still signs in with this address (an address it reserved but never took does not count). */
export const usesAddress = async (ctx: AppContext, userId: string, email: string): Promise<boolean> => {
  const state = await userState(ctx, userId);
  return hasAccountState(state) && state.status !== 'deleted' && state.email === normalizeEmail(email);
};

/**
 * Reserves an address. A sign-up or e-mail change that died between the reservation and its
 * account event leaves the address held by a user who does not use it; that fact goes to the
 * reservation decider, which hands the address over once the reservation is older than
 * ABANDONED_RESERVATION_AFTER_MS (younger ones may still be in flight). No background process is
 * needed: the address is only ever wanted again by someone asking for it.
 */
export const reserveEmail = async (ctx: AppContext, email: string, userId: string, cc: CommandContext) => {
  const stream = emailStream(ctx, email);
  const { state } = await loadState(ctx.commands, emailReservationDecider, stream);
  const holder = state.status === 'held' && state.userId !== userId ? state.userId : null;
  const abandonedHolderId = holder && !(await usesAddress(ctx, holder, email)) ? holder : undefined;
  return handleCommand(
    ctx.commands,
    emailReservationDecider,
    stream,
    accountCommand(ctx, 'ReserveEmail', { userId, ...(abandonedHolderId ? { abandonedHolderId } : {}) }),
    cc,
  );
};

export const releaseEmail = (ctx: AppContext, email: string, userId: string, cc: CommandContext) =>
  handleCommand(ctx.commands, emailReservationDecider, emailStream(ctx, email), accountCommand(ctx, 'ReleaseEmail', { userId }), cc);

export const reserveUsername = (ctx: AppContext, username: string, userId: string, cc: CommandContext) =>
  handleCommand(ctx.commands, usernameReservationDecider, usernameStream(ctx, username), accountCommand(ctx, 'ReserveUsername', { userId }), cc);

export const releaseUsername = (ctx: AppContext, username: string, userId: string, cc: CommandContext) =>
  handleCommand(ctx.commands, usernameReservationDecider, usernameStream(ctx, username), accountCommand(ctx, 'ReleaseUsername', { userId }), cc);
