import { walletApi } from './wallet.api';
import type { ChainInfo } from './wallet.types';
import { useLoad } from '../../components/useLoad';

let cached: ChainInfo | null = null;

/**
 * The chain the wallet runs on. The last answer shows at once (the chain's name and costs do not
 * change while it runs); each screen asks again for the current height.
 */
export const useChainInfo = (): ChainInfo | null => {
  const { data } = useLoad(async () => {
    cached = await walletApi.chainInfo();
    return cached;
  }, []);
  return data ?? cached;
};
