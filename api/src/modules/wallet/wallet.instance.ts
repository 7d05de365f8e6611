import type { AppContext } from '../../context';
import { buildChain } from './chain';
import { WalletService } from './wallet.service';

const services = new WeakMap<AppContext, Promise<WalletService>>();

/**
 * The wallet of this app: other slices (pinning payments of Secure Fetch) call
 * `(await walletOf(ctx)).payForPinning(...)`.
 */
export const walletOf = (ctx: AppContext): Promise<WalletService> => {
  let service = services.get(ctx);
  if (!service) {
    service = buildChain(ctx).then((chain) => new WalletService(ctx, chain));
    services.set(ctx, service);
  }
  return service;
};

