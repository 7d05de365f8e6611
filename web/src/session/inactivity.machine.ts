import { assign, setup } from 'xstate';

/** How often, at most, user activity tells the server the session is still in use. */
export const MAX_KEEP_ALIVE_INTERVAL_MS = 60_000;

export interface InactivityInput {
  /** The user's inactivity timeout (user info `sessionTimeout`, in seconds) in milliseconds. */
  timeoutMs: number;
  /** When watching starts (ms since epoch). */
  now: number;
}

export interface InactivityContext {
  timeoutMs: number;
  lastActivityAt: number;
  /** Last time the server heard from this page (a successful call or a keep-alive). */
  lastServerContactAt: number;
}

export type InactivityEvent =
  /** Pointer, keys or wheel in this page, or activity reported by another tab of the app. */
  | { type: 'ACTIVITY'; at: number; serverContactAt?: number | null }
  /** The page became visible again (a tab brought back, a laptop woken). */
  | { type: 'VISIBLE'; at: number; serverContactAt?: number | null };

export const keepAliveInterval = (timeoutMs: number) => Math.min(MAX_KEEP_ALIVE_INTERVAL_MS, Math.floor(timeoutMs / 4));

/**
 * Signs the user out when the inactivity timeout runs out, instead of leaving the account's data on
 * screen until the next click. Activity restarts the countdown. The server counts only requests as
 * activity, so activity also keeps the server's session alive (`keepAlive`, at most once per
 * interval) when no request went out lately. Timers of a hidden or sleeping page fire late or not at
 * all: on becoming visible the elapsed time is checked before anything else.
 * Actions to provide: `keepAlive` (touch the session), `timedOut` (sign out).
 */
export const inactivityMachine = setup({
  types: {
    context: {} as InactivityContext,
    events: {} as InactivityEvent,
    input: {} as InactivityInput,
  },
  actions: {
    keepAlive: () => {},
    timedOut: () => {},
    recordActivity: assign(({ context, event }) => ({
      lastActivityAt: Math.max(context.lastActivityAt, event.at),
      lastServerContactAt: Math.max(context.lastServerContactAt, event.serverContactAt ?? 0),
    })),
    recordKeepAlive: assign(({ event }) => ({ lastServerContactAt: event.at })),
  },
  delays: {
    timeout: ({ context }) => context.timeoutMs,
  },
  guards: {
    idleTooLong: ({ context, event }) => event.at - context.lastActivityAt >= context.timeoutMs,
    keepAliveDue: ({ context, event }) => event.at - Math.max(context.lastServerContactAt, event.serverContactAt ?? 0) >= keepAliveInterval(context.timeoutMs),
  },
}).createMachine({
  id: 'inactivity',
  context: ({ input }) => ({ timeoutMs: input.timeoutMs, lastActivityAt: input.now, lastServerContactAt: input.now }),
  initial: 'watching',
  states: {
    watching: {
      after: { timeout: 'timedOut' },
      on: {
        ACTIVITY: [
          { guard: 'keepAliveDue', target: 'watching', reenter: true, actions: ['recordActivity', 'recordKeepAlive', 'keepAlive'] },
          { target: 'watching', reenter: true, actions: 'recordActivity' },
        ],
        VISIBLE: [
          { guard: 'idleTooLong', target: 'timedOut' },
          { guard: 'keepAliveDue', target: 'watching', reenter: true, actions: ['recordActivity', 'recordKeepAlive', 'keepAlive'] },
          { target: 'watching', reenter: true, actions: 'recordActivity' },
        ],
      },
    },
    timedOut: { type: 'final', entry: 'timedOut' },
  },
});
