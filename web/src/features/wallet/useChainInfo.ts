import { useEffect, useState } from 'react';
import { walletApi } from './wallet.api';
import type { ChainInfo } from './wallet.types';

let cached: ChainInfo | null = null;

/** The chain the wallet runs on; asked once per page load (it does not change while running). */
export const useChainInfo = (): ChainInfo | null => {
  const [info, setInfo] = useState<ChainInfo | null>(cached);
  useEffect(() => {
    if (cached) return;
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
