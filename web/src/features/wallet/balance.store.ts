import { useEffect, useSyncExternalStore } from 'react';
import { toApiError, type NormalisedError } from '../../api/errors';
import { useSession } from '../../session/store';
import { toUnits } from './amounts';
import { BALANCE_TIMEOUT_MS, walletApi } from './wallet.api';
import type { WalletBalance, WalletSummary } from './wallet.types';

/** The specification: after an action the balance is refreshed within 30 s. */
export const REFRESH_WITHIN_MS = 30_000;
/** When to look again after an action: soon, after a block or two, and the last one inside 30 s. */
export const REFRESH_AFTER_ACTION_MS: readonly number[] = [1_500, 12_000, 25_000];
/** While tokens are unconfirmed the balance is looked at this often, to show them confirmed. */
export const UNCONFIRMED_POLL_MS = 10_000;

export interface BalanceState {
  summary: WalletSummary | null;
  balance: WalletBalance | null;
  loading: boolean;
  error: NormalisedError | null;
  updatedAt: number | null;
}

export interface BalanceLoad {
  summary: WalletSummary;
  balance: WalletBalance;
}

export interface BalanceStoreDeps {
  load: (signal: AbortSignal) => Promise<BalanceLoad>;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  timeoutMs?: number;
}

const hasUnconfirmed = (state: BalanceState) => {
  const units = toUnits(state.balance?.unconfirmed ?? state.summary?.pending ?? '0');
  return units !== null && units !== 0;
};

/**
 * The wallet's balance, shared by every wallet screen. A load that has no answer after 20 s is
 * aborted and reported as a timeout; an action (send, replenish, new address) schedules refreshes
 * that all fall inside 30 s; unconfirmed tokens keep it polling until they are confirmed.
 */
export const createBalanceStore = (deps: BalanceStoreDeps) => {
  const now = deps.now ?? (() => Date.now());
  const setTimer = deps.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const clearTimer = deps.clearTimer ?? ((h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>));
  const timeoutMs = deps.timeoutMs ?? BALANCE_TIMEOUT_MS;
  let state: BalanceState = { summary: null, balance: null, loading: false, error: null, updatedAt: null };
  const listeners = new Set<() => void>();
  const scheduled = new Set<unknown>();
  let poll: unknown = null;
  let inFlight: AbortController | null = null;
  let watchers = 0;
  let owner: string | null = null;

  const set = (next: Partial<BalanceState>) => {
    state = { ...state, ...next };
    for (const l of listeners) l();
  };

  const schedulePoll = () => {
    if (poll !== null) clearTimer(poll);
    poll = null;
    if (watchers > 0 && hasUnconfirmed(state)) {
      poll = setTimer(() => {
        poll = null;
        void refresh();
      }, UNCONFIRMED_POLL_MS);
    }
  };

  const refresh = async (): Promise<void> => {
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    let timedOut = false;
    const timer = setTimer(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    set({ loading: true });
    try {
      const { summary, balance } = await deps.load(controller.signal);
      if (inFlight !== controller) return;
      set({ summary, balance, loading: false, error: null, updatedAt: now() });
    } catch (error) {
      if (inFlight !== controller) return;
      const normalised = timedOut ? { code: 'WALLET_BALANCE_TIMEOUT', message: 'The balance did not arrive in time', data: null } : toApiError(error).toJSON();
      set({ loading: false, error: normalised });
    } finally {
      clearTimer(timer);
      if (inFlight === controller) {
        inFlight = null;
        schedulePoll();
      }
    }
  };

  /** Forgets everything; `quietly` when called while a screen renders (it reads the new state itself). */
  const reset = (quietly = false) => {
    inFlight?.abort();
    inFlight = null;
    for (const h of scheduled) clearTimer(h);
    scheduled.clear();
    if (poll !== null) clearTimer(poll);
    poll = null;
    const empty: BalanceState = { summary: null, balance: null, loading: false, error: null, updatedAt: null };
    if (quietly) state = empty;
    else set(empty);
  };

  return {
    get: () => state,
    subscribe: (l: () => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    refresh,
    /** Something changed the balance: look now-ish and again within 30 s. */
    afterAction: () => {
      for (const ms of REFRESH_AFTER_ACTION_MS) {
        const handle = setTimer(() => {
          scheduled.delete(handle);
          void refresh();
        }, ms);
        scheduled.add(handle);
      }
    },
    /** A screen shows the balance: load it, and keep polling while tokens are unconfirmed. */
    watch: () => {
      watchers += 1;
      void refresh();
      return () => {
        watchers -= 1;
        if (watchers === 0 && poll !== null) {
          clearTimer(poll);
          poll = null;
        }
      };
    },
    /** The balance belongs to one account: another one signing in starts from nothing. */
    ownedBy: (userId: string | null) => {
      if (userId === owner) return;
      owner = userId;
      reset(true);
    },
    reset: () => reset(),
  };
};

export const balanceStore = createBalanceStore({
  load: async (signal) => {
    const [summary, balance] = await Promise.all([walletApi.summary(signal), walletApi.balance(signal)]);
    return { summary, balance };
  },
});

/** The shared balance, loaded when the calling screen mounts. */
export const useBalance = (): BalanceState & { refresh: () => Promise<void>; afterAction: () => void } => {
  const userId = useSession().user?.id ?? null;
  balanceStore.ownedBy(userId);
  const state = useSyncExternalStore(balanceStore.subscribe, balanceStore.get, balanceStore.get);
  useEffect(() => balanceStore.watch(), [userId]);
  return { ...state, refresh: balanceStore.refresh, afterAction: balanceStore.afterAction };
};
