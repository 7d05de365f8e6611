import { z } from 'zod';

export const ErrorSchema = z.object({ code: z.union([z.string(), z.number()]), message: z.string(), data: z.unknown() });
export const AmountText = z.string().describe('AXEL as a decimal string, at most 8 decimals');

export const AddressesSchema = z.object({
  addresses: z.array(z.object({ type: z.enum(['primary', 'fuel']), address: z.string() })),
});

export const OverviewSchema = AddressesSchema.extend({
  main: AmountText,
  fuel: AmountText,
  /** On its way in, not mined yet. */
  pending: AmountText,
  available: AmountText,
  /** Sent, not mined yet. */
  outgoing: AmountText,
  /** What a send may move now: nothing while tokens wait for a block, either way. */
  sendable: AmountText,
  /** Why a send must wait: a pending send (`outgoing`) or tokens on their way in (`incoming`). */
  sendBlockedBy: z.enum(['outgoing', 'incoming']).nullable(),
});
export const BalanceSchema = z.object({ confirmed: AmountText, unconfirmed: AmountText });

export const TransactionSchema = z.object({
  id: z.string(),
  /** What the transaction was, when the chain tells: minted test tokens, from or to the treasury. */
  about: z.enum(['minted', 'fromTreasury', 'toTreasury']).nullable(),
  txid: z.string(),
  note: z.string().nullable(),
  timestamp: z.string(),
  category: z.enum(['send', 'receive', 'generate']),
  type: z.enum(['send', 'receive', 'generate']),
  amount: AmountText,
  address: z.string(),
  account: z.string(),
  confirmations: z.number(),
  blockIndex: z.number().nullable(),
  blockHash: z.string().nullable(),
  blockTime: z.string().nullable(),
});

export const TransactionsQuery = z.object({
  address: z.string().max(100).optional(),
  perPage: z.coerce.number().int().min(1).max(100).default(10),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

export const SendBody = z.object({
  address: z.string().max(200).optional(),
  amount: z.string().max(100).optional(),
  note: z.string().max(500).optional(),
  idempotencyKey: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{8,100}$/)
    .optional(),
});

export const SendAnswer = z.object({ txid: z.string(), amount: AmountText, address: z.string() });

export const ChainInfoSchema = z.object({
  chain: z.string(),
  development: z.boolean(),
  /** What the wallet's header says: "development chain" on the embedded one. */
  label: z.string().nullable(),
  blocks: z.number(),
  bestBlockHash: z.string().nullable(),
  time: z.string().nullable(),
  faucet: z.boolean(),
  explorerUrl: z.string().nullable(),
  minimumSend: AmountText,
  costs: z.object({ fetch: AmountText, certificate: AmountText }),
});

export const FaucetBody = z.object({ amount: z.string().max(100).optional(), to: z.enum(['self', 'treasury']).optional() });
