import { formatAxel, pinningCost } from '@axel/domain/wallet/amount';
import { assign, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import type { PayAnswer } from './secure-fetch.api';

/** What paying and pinning a fetch costs (spec §9): 0.003 AXEL, 0.009 with its certificate. */
export const fetchCost = (certificated: boolean) => formatAxel(pinningCost({ certificate: certificated }));

export const INSUFFICIENT_TO_PIN = 'INSUFFICIENT_CONFIRMED_TOKENS';

/**
 * Whether the confirmed balance is known to fall short of the cost: pay is then not offered (it
 * would only be refused after the confirm step). An unknown balance (null) leaves it to the server.
 */
export const shortOfTokens = (confirmed: number | null, certificated: boolean) => confirmed !== null && confirmed < pinningCost({ certificate: certificated });

export interface FetchPayContext {
  fetchId: string;
  certificated: boolean;
  cost: string;
  error: NormalisedError | null;
  paid: PayAnswer | null;
}

/** `confirmed`: the owner's confirmed balance in base units as the page knows it (null: unknown). */
export type FetchPayEvent = { type: 'PAY'; confirmed?: number | null } | { type: 'CONFIRM' } | { type: 'CANCEL' } | { type: 'RETRY' };

/**
 * Pay and pin of a fetch whose files arrived (spec §4: uploaded publishes a payment): the cost is
 * shown and confirmed, then paid from the confirmed balance; a balance known to fall short is not
 * taken to the confirm step (the page says so and links to the wallet). A refusal (spec §8 "insufficient
 * confirmed tokens to pin") is shown and can be retried once tokens are confirmed.
 */
export const fetchPayMachine = setup({
  types: {
    context: {} as FetchPayContext,
    events: {} as FetchPayEvent,
    input: {} as { fetchId: string; certificated: boolean },
  },
  guards: {
    affordable: ({ context, event }) => event.type !== 'PAY' || !shortOfTokens(event.confirmed ?? null, context.certificated),
  },
  actors: {
    pay: fromPromise<PayAnswer, { fetchId: string }>(async () => {
      throw new Error('pay not provided');
    }),
  },
  actions: {
    /** The app hears of the payment: the fetch is reloaded and the balance refreshed. */
    paid: () => {},
  },
}).createMachine({
  id: 'fetchPay',
  context: ({ input }) => ({ fetchId: input.fetchId, certificated: input.certificated, cost: fetchCost(input.certificated), error: null, paid: null }),
  initial: 'idle',
  states: {
    idle: { on: { PAY: { guard: 'affordable', target: 'confirming' } } },
    confirming: { on: { CONFIRM: 'paying', CANCEL: 'idle' } },
    paying: {
      entry: assign({ error: null }),
      invoke: {
        src: 'pay',
        input: ({ context }) => ({ fetchId: context.fetchId }),
        onDone: { target: 'paid', actions: [assign({ paid: ({ event }) => event.output }), 'paid'] },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => toApiError(event.error).toJSON() }) },
      },
    },
    failed: { on: { RETRY: 'paying', CANCEL: 'idle' } },
    paid: { type: 'final' },
  },
});
