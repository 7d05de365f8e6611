import { useCallback, useEffect, useState } from 'react';
import type { UserInfo } from '../../api/types';
import { toApiError, type NormalisedError } from '../../api/errors';
import { toPendingProduct, toPlanInfo } from './billing.normalise';
import type { PendingProduct, PlanInfo } from './billing.types';

export type Loadable<T> = { status: 'loading' } | { status: 'ready'; value: T } | { status: 'failed'; error: NormalisedError };

/** Loads once per key and again on `reload()`; an answer that arrives after the page left is dropped. */
export const useLoad = <T>(load: () => Promise<T>, key: string): [Loadable<T>, () => void] => {
  const [state, setState] = useState<Loadable<T>>({ status: 'loading' });
  const [round, setRound] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once per key and per reload, whichever closure a later render passes
  useEffect(() => {
    let live = true;
    setState({ status: 'loading' });
    load().then(
      (value) => live && setState({ status: 'ready', value }),
      (e: unknown) => live && setState({ status: 'failed', error: toApiError(e).toJSON() }),
    );
    return () => {
      live = false;
    };
  }, [key, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return [state, reload];
};

/** The billing fields of the user info (§3 "User info"), read without trusting their presence. */
export interface BillingFlags {
  plan: PlanInfo | null;
  pendingProduct: PendingProduct | null;
  isBasic: boolean;
  isUnpaid: boolean;
  isGraceUnpaid: boolean;
}

export const billingFlagsOf = (user: UserInfo | null): BillingFlags => {
  const raw = (user ?? {}) as unknown as Record<string, unknown>;
  return {
    plan: raw.userPlanInfo ? toPlanInfo(raw.userPlanInfo) : null,
    pendingProduct: toPendingProduct(raw.pendingProduct),
    isBasic: raw.isBasic === true,
    isUnpaid: raw.isUnpaidUser === true || raw.status === 'unpaid' || raw.status === 'abandoned',
    isGraceUnpaid: raw.isGraceUnpaidUser === true,
  };
};
