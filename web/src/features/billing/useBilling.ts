import type { UserInfo } from '../../api/types';
import type { NormalisedError } from '../../api/errors';
import { useLoad as useLoadShared } from '../../components/useLoad';
import { toPendingProduct, toPlanInfo } from './billing.normalise';
import type { PendingProduct, PlanInfo } from './billing.types';

export type Loadable<T> = { status: 'loading' } | { status: 'ready'; value: T } | { status: 'failed'; error: NormalisedError };

/** The shared load in the billing pages' shape: once per key and again on `reload()`, a spinner each time. */
export const useBillingLoad = <T>(load: () => Promise<T>, key: string): [Loadable<T>, () => void] => {
  const { data, error, loading, reload } = useLoadShared(() => load(), [key], { reset: true });
  const state: Loadable<T> = error ? { status: 'failed', error } : loading || data === undefined ? { status: 'loading' } : { status: 'ready', value: data };
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
