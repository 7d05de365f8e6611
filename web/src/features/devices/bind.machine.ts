import { CLAIM_WINDOW_MS } from '@axel/domain/devices/devices.identity';
import { assign, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import type { Drive, OpenedClaim } from './devices.api';

/** How often the dialog asks whether the device has signed the code. */
export const BIND_POLL_MS = 2000;

export interface ShownClaim {
  driveId: string;
  code: string;
  /** When the code stops being accepted, on this browser's clock (ms since epoch). */
  deadline: number;
}

export interface BindContext {
  userId: string;
  now: () => number;
  claim: ShownClaim | null;
  drive: Drive | null;
  error: NormalisedError | null;
}

export type BindEvent = { type: 'SUBMIT'; serial: string; mac: string } | { type: 'RETRY' };

/**
 * The time the server gives the code, counted on this browser's clock from when the answer came.
 * A browser whose clock disagrees with the server's still counts down the claim window.
 */
export const claimDeadline = (expiresAt: string, receivedAt: number): number => {
  const left = Date.parse(expiresAt) - receivedAt;
  return receivedAt + (Number.isFinite(left) && left > 0 && left <= CLAIM_WINDOW_MS ? left : CLAIM_WINDOW_MS);
};

/** Whole seconds left to sign the code, never below zero. */
export const secondsLeft = (deadline: number, now: number) => Math.max(0, Math.ceil((deadline - now) / 1000));

/**
 * Binding a CloudLocker: the user types serial and MAC (editing) -> the server answers a code
 * (opening) -> the page shows it and asks every 2 s whether the device has signed it (waiting,
 * checking) -> bound; when the claim window passes first, expired, from where RETRY starts again.
 */
export const bindMachine = setup({
  types: {
    context: {} as BindContext,
    events: {} as BindEvent,
    input: {} as { userId: string; now?: () => number },
  },
  delays: { poll: BIND_POLL_MS },
  actors: {
    openClaim: fromPromise<OpenedClaim, { userId: string; serial: string; mac: string }>(async () => {
      throw new Error('openClaim actor not provided');
    }),
    /** The bound drive, or null while the device has not signed yet. */
    checkBound: fromPromise<Drive | null, { userId: string; driveId: string }>(async () => {
      throw new Error('checkBound actor not provided');
    }),
  },
  guards: {
    expired: ({ context }) => context.claim !== null && context.now() >= context.claim.deadline,
  },
}).createMachine({
  id: 'bindCloudLocker',
  context: ({ input }) => ({ userId: input.userId, now: input.now ?? (() => Date.now()), claim: null, drive: null, error: null }),
  initial: 'editing',
  states: {
    editing: {
      on: { SUBMIT: { target: 'opening', actions: assign({ error: null }) } },
    },
    opening: {
      invoke: {
        src: 'openClaim',
        input: ({ context, event }) => {
          const { serial, mac } = event as Extract<BindEvent, { type: 'SUBMIT' }>;
          return { userId: context.userId, serial: serial.trim(), mac: mac.trim() };
        },
        onDone: {
          target: 'waiting',
          actions: assign(({ context, event }) => ({
            claim: { driveId: event.output.driveId, code: event.output.code, deadline: claimDeadline(event.output.expiresAt, context.now()) },
          })),
        },
        onError: { target: 'editing', actions: assign(({ event }) => ({ error: toApiError(event.error).toJSON() })) },
      },
    },
    waiting: {
      after: { poll: [{ guard: 'expired', target: 'expired' }, { target: 'checking' }] },
    },
    checking: {
      invoke: {
        src: 'checkBound',
        input: ({ context }) => ({ userId: context.userId, driveId: context.claim!.driveId }),
        onDone: [
          {
            guard: ({ event }) => event.output !== null && event.output.bound,
            target: 'bound',
            actions: assign(({ event }) => ({ drive: event.output, error: null })),
          },
          { guard: 'expired', target: 'expired' },
          { target: 'waiting', actions: assign({ error: null }) },
        ],
        // a failed look (the network) is shown, and the next one tried: the code is still valid
        onError: { target: 'waiting', actions: assign(({ event }) => ({ error: toApiError(event.error).toJSON() })) },
      },
    },
    expired: {
      on: { RETRY: { target: 'editing', actions: assign({ claim: null, error: null }) } },
    },
    bound: { type: 'final' },
  },
});
