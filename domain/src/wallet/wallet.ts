import { z } from 'zod';
import { assertNever, type Command, type Decider } from '../shared/decider';
import { defineEvent, erasesOwnStream, type EventOf } from '../shared/events';

/**
 * A user's custodial wallet: the two addresses the product keeps for them (the spec's address
 * types `primary` and `fuel`) and the notes they wrote on their sends. Balances and transactions
 * live on the chain, behind the chain port; only what the chain cannot hold is here.
 */
export const walletStreamName = (userId: string) => `wallet-${userId}`;
export const ADDRESS_TYPES = ['primary', 'fuel'] as const;
export type AddressType = (typeof ADDRESS_TYPES)[number];

export const WalletAddressesCreated = defineEvent('WalletAddressesCreated', z.object({ userId: z.string(), primary: z.string(), fuel: z.string() }));
export const WalletSendNoted = defineEvent('WalletSendNoted', z.object({ txid: z.string(), note: z.string() }), { personal: ['note'] });
/** The account was purged: the notes are forgotten (the addresses stay, the chain keeps their history). */
export const WalletDataForgotten = defineEvent('WalletDataForgotten', z.object({ at: z.string() }), { erases: erasesOwnStream });
export const walletEventDefinitions = [WalletAddressesCreated, WalletSendNoted, WalletDataForgotten];
export type WalletEvent = EventOf<typeof WalletAddressesCreated> | EventOf<typeof WalletSendNoted> | EventOf<typeof WalletDataForgotten>;

export type WalletCommand =
  | Command<'CreateWalletAddresses', { userId: string; primary: string; fuel: string }>
  | Command<'NoteSend', { txid: string; note: string }>
  | Command<'ForgetWalletData', Record<string, never>>;

export interface WalletState {
  readonly addresses: { readonly primary: string; readonly fuel: string } | null;
  readonly notes: Readonly<Record<string, string>>;
  readonly forgotten: boolean;
}

export const walletDecider: Decider<WalletCommand, WalletEvent, WalletState> = {
  initialState: () => ({ addresses: null, notes: {}, forgotten: false }),
  decide(command, state) {
    switch (command.type) {
      case 'CreateWalletAddresses':
        return state.addresses ? [] : [{ type: 'WalletAddressesCreated', data: command.data }];
      case 'NoteSend':
        return command.data.note === '' || state.forgotten || state.notes[command.data.txid] !== undefined
          ? []
          : [{ type: 'WalletSendNoted', data: command.data }];
      case 'ForgetWalletData':
        return state.forgotten ? [] : [{ type: 'WalletDataForgotten', data: { at: command.metadata.now.toISOString() } }];
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'WalletAddressesCreated':
        return { ...state, addresses: { primary: event.data.primary, fuel: event.data.fuel } };
      case 'WalletSendNoted':
        return { ...state, notes: { ...state.notes, [event.data.txid]: event.data.note } };
      case 'WalletDataForgotten':
        return { ...state, notes: {}, forgotten: true };
      default:
        return state;
    }
  },
};

/** The spec's address rule: exactly 34 letters or digits. */
export const isWalletAddress = (value: string): boolean => /^[A-Za-z0-9]{34}$/.test(value);
/** /transaction/:id: alphanumeric, at least 20 characters. */
export const isTransactionId = (value: string): boolean => /^[A-Za-z0-9]{20,100}$/.test(value);
