import { assign, fromCallback, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import type { LinkView, Signature, SigningEntry, SigningPin } from './esign-receiver.api';

/** The signing lease lasts 60 s on the server: renewed every 20 s while the signer has the documents open. */
export const HEARTBEAT_MS = 20_000;
/** While another signer holds the documents, trying again this often. */
export const LOCKED_RETRY_MS = 10_000;

export const PASSWORD_CODES = new Set(['ESIGN_WRONG_PASSWORD', 'ESIGN_PASSWORD_REQUIRED']);
export const LOCKED_CODE = 'ESIGN_LOCKED';
/** Refusals that mean the signer's state moved on (signed in another tab, package closed): shown again from the server's view. */
const STATE_CHANGED_CODES = new Set(['ESIGN_ALREADY_SIGNED', 'ESIGN_COMPLETED', 'ESIGN_NOT_AWAITING_SIGNATURES', 'ESIGN_NOT_YOUR_TURN', 'ESIGN_ARCHIVED']);

export interface SigningInput {
  linkId: string;
  /** A password the signer already gave for this link in this tab. */
  password: string | null;
}

export interface SigningContext {
  linkId: string;
  password: string;
  view: LinkView | null;
  entries: SigningEntry[];
  /** The signature the signer adopted (typed or drawn), sent when they finish. */
  signature: Signature | null;
  /** The signer's own fields filled on this page (the server's already filled ones included). */
  filled: string[];
  /** Under the password field: the server's answer to the last password. */
  passwordError: NormalisedError | null;
  /** A failure shown above the documents (finishing refused, a lost connection). */
  error: NormalisedError | null;
}

export type SigningEvent =
  | { type: 'SUBMIT_PASSWORD'; password: string }
  /** A field of the signer's own clicked: a date or text one fills at once; a signature or initials one needs the adopted signature. */
  | { type: 'FILL'; pinId: string }
  /** The signature typed or drawn in the dialog, filling the field it was opened for. */
  | { type: 'ADOPT'; signature: Signature; pinId: string }
  | { type: 'CLEAR_SIGNATURE' }
  | { type: 'FINISH' }
  | { type: 'RETRY' }
  /** The lease was lost (the heartbeat refused): another signer now holds it. */
  | { type: 'LEASE_LOST'; error: NormalisedError };

export interface LinkCall {
  linkId: string;
  password: string;
}
export interface FinishCall extends LinkCall {
  signature: Signature | null;
}

const errorOf = (event: unknown): NormalisedError => toApiError((event as { error?: unknown }).error).toJSON();

export const minePins = (entries: SigningEntry[]): SigningPin[] => entries.flatMap((e) => e.pins.filter((p) => p.mine));
const needsSignature = (pin: SigningPin) => pin.kind === 'signature' || pin.kind === 'initials';
const pinOf = (context: SigningContext, pinId: string) => minePins(context.entries).find((p) => p.id === pinId);

/** Every field of the signer's own is filled: they may finish. */
export const allFilled = (context: Pick<SigningContext, 'entries' | 'filled'>) => minePins(context.entries).every((p) => context.filled.includes(p.id));

/**
 * A signer's visit to their link: the password first (kept for this tab), then their state
 * (waiting for an earlier signer, already signed, closed), then the documents, which the server
 * opens to one signer at a time (423 ESIGN_LOCKED: another user signs; tried again every
 * LOCKED_RETRY_MS). While signing, a heartbeat keeps the lease; the signer fills each of their
 * fields (signature and initials from the one signature they adopt, typed or drawn) and finishes:
 * the signature is sent, then the finish. Done shows the sealed document once the package is
 * completed.
 */
export const signingMachine = setup({
  types: {
    context: {} as SigningContext,
    events: {} as SigningEvent,
    input: {} as SigningInput,
  },
  actors: {
    loadView: fromPromise<LinkView, LinkCall>(async () => {
      throw new Error('loadView actor not provided');
    }),
    loadEntries: fromPromise<SigningEntry[], LinkCall>(async () => {
      throw new Error('loadEntries actor not provided');
    }),
    finish: fromPromise<LinkView, FinishCall>(async () => {
      throw new Error('finish actor not provided');
    }),
    heartbeat: fromCallback<SigningEvent, LinkCall>(() => {
      throw new Error('heartbeat actor not provided');
    }),
  },
  guards: {
    hasPassword: ({ context }) => context.password !== '',
    passwordRefusal: ({ event }) => PASSWORD_CODES.has(errorOf(event).code),
    lockedRefusal: ({ event }) => errorOf(event).code === LOCKED_CODE,
    stateChanged: ({ event }) => STATE_CHANGED_CODES.has(errorOf(event).code),
    isFinished: ({ context }) => context.view?.signingState === 'finished',
    isWaiting: ({ context }) => context.view?.signingState === 'waiting',
    isClosed: ({ context }) => context.view?.signingState === 'closed',
    canFillDirectly: ({ context, event }) => {
      if (event.type !== 'FILL') return false;
      const pin = pinOf(context, event.pinId);
      return !!pin && (!needsSignature(pin) || context.signature !== null || pin.filled);
    },
    isOwnPin: ({ context, event }) => event.type === 'ADOPT' && !!pinOf(context, event.pinId),
    allFilled: ({ context }) => allFilled(context),
  },
}).createMachine({
  id: 'esignSigning',
  context: ({ input }) => ({
    linkId: input.linkId,
    password: input.password ?? '',
    view: null,
    entries: [],
    signature: null,
    filled: [],
    passwordError: null,
    error: null,
  }),
  initial: 'start',
  states: {
    start: { always: [{ guard: 'hasPassword', target: 'opening' }, { target: 'password' }] },
    password: {
      on: {
        SUBMIT_PASSWORD: { target: 'opening', actions: assign({ password: ({ event }) => event.password }) },
      },
    },
    opening: {
      invoke: {
        src: 'loadView',
        input: ({ context }) => ({ linkId: context.linkId, password: context.password }),
        onDone: { target: 'route', actions: assign({ view: ({ event }) => event.output, passwordError: null }) },
        onError: [
          { guard: 'passwordRefusal', target: 'password', actions: assign({ password: '', passwordError: ({ event }) => errorOf(event) }) },
          { target: 'failed', actions: assign({ error: ({ event }) => errorOf(event) }) },
        ],
      },
    },
    route: {
      always: [
        { guard: 'isFinished', target: 'done' },
        { guard: 'isWaiting', target: 'waiting' },
        { guard: 'isClosed', target: 'closed' },
        { target: 'loadingEntries' },
      ],
    },
    /** An earlier signer signs first: the signer gets a mail when it is their turn. */
    waiting: { on: { RETRY: 'opening' } },
    /** The package no longer waits for signatures (archived, or completed without this signer). */
    closed: {},
    loadingEntries: {
      invoke: {
        src: 'loadEntries',
        input: ({ context }) => ({ linkId: context.linkId, password: context.password }),
        onDone: {
          target: 'signing',
          actions: assign(({ context, event }) => ({
            entries: event.output,
            filled: [
              ...new Set([
                ...context.filled,
                ...minePins(event.output)
                  .filter((p) => p.filled)
                  .map((p) => p.id),
              ]),
            ],
            error: null,
          })),
        },
        onError: [
          { guard: 'lockedRefusal', target: 'locked' },
          { guard: 'passwordRefusal', target: 'password', actions: assign({ password: '', passwordError: ({ event }) => errorOf(event) }) },
          { target: 'failed', actions: assign({ error: ({ event }) => errorOf(event) }) },
        ],
      },
    },
    /** Another signer has the documents open: tried again shortly, or at once on RETRY. */
    locked: {
      after: { [LOCKED_RETRY_MS]: 'loadingEntries' },
      on: { RETRY: 'loadingEntries' },
    },
    signing: {
      invoke: { src: 'heartbeat', input: ({ context }) => ({ linkId: context.linkId, password: context.password }) },
      on: {
        FILL: { guard: 'canFillDirectly', actions: assign({ filled: ({ context, event }) => [...new Set([...context.filled, event.pinId])] }) },
        ADOPT: {
          guard: 'isOwnPin',
          actions: assign({ signature: ({ event }) => event.signature, filled: ({ context, event }) => [...new Set([...context.filled, event.pinId])] }),
        },
        // a new signature: the fields it had filled are empty again (the server's filled ones stay)
        CLEAR_SIGNATURE: {
          actions: assign(({ context }) => ({
            signature: null,
            filled: context.filled.filter((id) => {
              const pin = pinOf(context, id);
              return !pin || !needsSignature(pin) || pin.filled;
            }),
          })),
        },
        FINISH: { guard: 'allFilled', target: 'finishing' },
        LEASE_LOST: { target: 'locked', actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    finishing: {
      invoke: {
        src: 'finish',
        input: ({ context }) => ({ linkId: context.linkId, password: context.password, signature: context.signature }),
        onDone: { target: 'route', actions: assign({ view: ({ event }) => event.output, error: null }) },
        onError: [
          { guard: 'lockedRefusal', target: 'locked', actions: assign({ error: ({ event }) => errorOf(event) }) },
          { guard: 'passwordRefusal', target: 'password', actions: assign({ password: '', passwordError: ({ event }) => errorOf(event) }) },
          // finished elsewhere, completed or closed meanwhile: the signer's state says which
          { guard: 'stateChanged', target: 'opening', actions: assign({ error: ({ event }) => errorOf(event) }) },
          { target: 'signing', actions: assign({ error: ({ event }) => errorOf(event) }) },
        ],
      },
    },
    /** Already signed: the sealed document once every signer has finished (RETRY asks again). */
    done: { on: { RETRY: 'refreshing' } },
    refreshing: {
      invoke: {
        src: 'loadView',
        input: ({ context }) => ({ linkId: context.linkId, password: context.password }),
        onDone: { target: 'done', actions: assign({ view: ({ event }) => event.output }) },
        onError: { target: 'done', actions: assign({ error: ({ event }) => errorOf(event) }) },
      },
    },
    failed: { on: { RETRY: 'opening' } },
  },
});
