import type { AppContext } from '../../context';
import type { SecureFetchUploadGate } from './contracts';

/*
 * Where the tus routes find the Secure Fetch gate of their app. The Secure Fetch module binds its
 * gate when it registers its routes; until one is bound, anonymous creations are refused (the
 * routes answer as for a missing session).
 */
const bound = new WeakMap<AppContext, SecureFetchUploadGate>();

export const bindSecureFetchGate = (ctx: AppContext, gate: SecureFetchUploadGate): void => {
  bound.set(ctx, gate);
};

export const secureFetchGate = (ctx: AppContext): SecureFetchUploadGate | undefined => bound.get(ctx);
