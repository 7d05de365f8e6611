import { assertNever, type Decider } from '../shared/decider';
import { CommonErrors, DomainError } from '../shared/errors';
import type { IpfsPinCommand } from './ipfs.commands';
import { IpfsErrors } from './ipfs.errors';
import type { IpfsPinEvent } from './ipfs.events';
import { evolveIpfsPin, initialIpfsPinState, isPin, type IpfsPinState, type Pin } from './ipfs.state';

/** A removal reason's length limit (what staff write in the console). */
export const PIN_REASON_MAX = 500;
/** A failure as the service said it, cut to this length. */
const FAILURE_MAX = 500;

const pinOf = (state: IpfsPinState): Pin => {
  if (!isPin(state)) throw new DomainError(IpfsErrors.pinNotFound);
  return state;
};

const decide = (command: IpfsPinCommand, state: IpfsPinState): IpfsPinEvent[] => {
  switch (command.type) {
    case 'RequestPin': {
      if (isPin(state)) {
        // the same payment asking again (a retried pay) answers the pin it made
        if (state.source.itemId === command.data.source.itemId && state.txId === command.data.txId) return [];
        throw new DomainError(CommonErrors.conflict);
      }
      return [{ type: 'IpfsPinRequested', data: { ...command.data } }];
    }
    case 'StartPin': {
      const pin = pinOf(state);
      // a pin whose process stopped while pinning may be started again
      if (pin.status !== 'queued' && pin.status !== 'pinning') throw new DomainError(IpfsErrors.notPinning, { status: pin.status });
      return [{ type: 'IpfsPinStarted', data: { attempt: pin.attempts + 1 } }];
    }
    case 'CompletePin': {
      const pin = pinOf(state);
      if (pin.status === 'pinned' && pin.cid === command.data.cid) return [];
      if (pin.status !== 'pinning') throw new DomainError(IpfsErrors.notPinning, { status: pin.status });
      return [{ type: 'IpfsPinPinned', data: { ...command.data } }];
    }
    case 'FailPin': {
      const pin = pinOf(state);
      if (pin.status !== 'pinning') throw new DomainError(IpfsErrors.notPinning, { status: pin.status });
      const reason = command.data.reason.trim().slice(0, FAILURE_MAX) || 'unknown';
      return [{ type: 'IpfsPinFailed', data: { reason } }];
    }
    case 'RetryPin': {
      const pin = pinOf(state);
      if (pin.status !== 'failed') throw new DomainError(IpfsErrors.notFailed, { status: pin.status });
      return [{ type: 'IpfsPinRetried', data: {} }];
    }
    case 'RemovePin': {
      const pin = pinOf(state);
      const reason = command.data.reason.trim();
      if (!reason || reason.length > PIN_REASON_MAX) throw new DomainError(IpfsErrors.reasonRequired, { field: 'reason', max: PIN_REASON_MAX });
      if (pin.status === 'unpinned') throw new DomainError(IpfsErrors.alreadyUnpinned);
      return [{ type: 'IpfsPinRemoved', data: { reason } }];
    }
    default:
      return assertNever(command);
  }
};

export const ipfsPinDecider: Decider<IpfsPinCommand, IpfsPinEvent, IpfsPinState> = {
  initialState: initialIpfsPinState,
  decide,
  evolve: evolveIpfsPin,
};
