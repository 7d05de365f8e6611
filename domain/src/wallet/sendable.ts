import type { BaseUnits } from './amount';

/** An address's balance on the chain: spendable, on its way in, on its way out (base units). */
export interface AddressBalance {
  /** Mined, minus what is already on its way out. */
  readonly confirmed: BaseUnits;
  /** On its way in, not mined yet. */
  readonly unconfirmed: BaseUnits;
  /** Sent from it, not mined yet. */
  readonly outgoing: BaseUnits;
}

/** Why a user's send must wait: a send of theirs or tokens to them not yet in a block. */
export type SendBlock = 'outgoing' | 'incoming';

/**
 * What a user's send may move now. The chain refuses a user's send while any of their tokens is
 * unconfirmed, either way (WALLET_UNCONFIRMED), so the wallet shows nothing sendable then and says
 * what it waits for, a pending send first: that is the one the user made and may not expect to block.
 */
export const sendableOf = (balance: AddressBalance): { readonly amount: BaseUnits; readonly blockedBy: SendBlock | null } => {
  const blockedBy: SendBlock | null = balance.outgoing > 0 ? 'outgoing' : balance.unconfirmed > 0 ? 'incoming' : null;
  return { amount: blockedBy ? 0 : balance.confirmed, blockedBy };
};
