import type { IpfsPinEvent, PinRecordStatus, PinSource } from './ipfs.events';

export interface Pin {
  readonly pinId: string;
  readonly ownerId: string;
  readonly source: PinSource;
  readonly size: number;
  readonly txId: string;
  readonly service: string;
  readonly status: PinRecordStatus;
  /** The DAG's root, once built. */
  readonly cid: string | null;
  readonly attempts: number;
  readonly failure: string | null;
  readonly removedReason: string | null;
}

export type IpfsPinState = { readonly status: 'none' } | Pin;

export const isPin = (state: IpfsPinState): state is Pin => 'pinId' in state;

export const initialIpfsPinState = (): IpfsPinState => ({ status: 'none' });

export const evolveIpfsPin = (state: IpfsPinState, event: IpfsPinEvent): IpfsPinState => {
  if (event.type === 'IpfsPinRequested') {
    if (isPin(state)) return state;
    return { ...event.data, status: 'queued', cid: null, attempts: 0, failure: null, removedReason: null };
  }
  if (!isPin(state)) return state;
  switch (event.type) {
    case 'IpfsPinStarted':
      return { ...state, status: 'pinning', attempts: event.data.attempt, failure: null };
    case 'IpfsPinPinned':
      return { ...state, status: 'pinned', cid: event.data.cid, failure: null };
    case 'IpfsPinFailed':
      return { ...state, status: 'failed', failure: event.data.reason };
    case 'IpfsPinRetried':
      return { ...state, status: 'queued', failure: null };
    case 'IpfsPinRemoved':
      return { ...state, status: 'unpinned', removedReason: event.data.reason };
    default:
      return state;
  }
};
