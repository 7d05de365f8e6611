import { useEffect, useState } from 'react';
import { walletApi } from './wallet.api';
import type { ChainInfo } from './wallet.types';

let cached: ChainInfo | null = null;

/**
 * The chain the wallet runs on. The last answer shows at once (the chain's name and costs do not
 * change while it runs); each screen asks again for the current height.
 */
export const useChainInfo = (): ChainInfo | null => {
  const [info, setInfo] = useState<ChainInfo | null>(cached);
  useEffect(() => {
    let live = true;
    walletApi
      .chainInfo()
      .then((i) => {
        cached = i;
        if (live) setInfo(i);
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, []);
  return info;
};
