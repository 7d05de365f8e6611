import { randomUUID } from 'node:crypto';
import {
  CommonErrors,
  DomainError,
  formatAxel,
  isWalletAddress,
  MINIMUM_SEND,
  parseAxel,
  PIN_CERTIFICATE_COST,
  PIN_FETCH_COST,
  WalletErrors,
} from '@axel/domain';
import { countWalletAddresses } from '@axel/projections/wallet/wallet.queries';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import QRCode from 'qrcode';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { limitsFor } from '../../http/rate-limits';
import { requestMeta, userActor } from '../../http/request-meta';
import { requireStaff, requireUser } from '../../http/auth';
import { faucetMode, isLoopbackClient } from './chain';
import {
  AddressesSchema,
  AmountText,
  BalanceSchema,
  ChainInfoSchema,
  ErrorSchema,
  FaucetBody,
  OverviewSchema,
  SendAnswer,
  SendBody,
  TransactionSchema,
  TransactionsQuery,
} from './wallet.schema';
import { withLedgerTimeout, type WalletService } from './wallet.service';

const tags = ['wallet'];
/** Most a faucet call mints, and what it mints when not told. */
const FAUCET_MAX = 1_000 * 100_000_000;
const FAUCET_DEFAULT = 10 * 100_000_000;
/** What staff's "fill treasury" mints when not told. */
const TREASURY_FILL_DEFAULT = 100 * 100_000_000;

const validation = (field: string, message = 'validation.required') => new DomainError(CommonErrors.validation, { fields: { [field]: message } });

export const walletRoutes = (ctx: AppContext, wallet: () => Promise<WalletService>) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  const mode = faucetMode(ctx.config);

  app.get(
    '/api/wallet/v1/',
    { schema: { tags, summary: 'Addresses and balances (main, fuel, pending, available)', response: { 200: OverviewSchema } } },
    async (request) => {
      const { user } = await requireUser(ctx, request);
      return (await wallet()).overview(user.id);
    },
  );

  app.post(
    '/api/wallet/v1/addresses',
    {
      schema: {
        tags,
        summary: 'Create the wallet addresses (primary and fuel); answers the existing ones when they exist',
        response: { 200: AddressesSchema, 201: AddressesSchema },
      },
      config: limit({ perIp: 30, perAccount: 10 }),
    },
    async (request, reply) => {
      const { user } = await requireUser(ctx, request);
      const { addresses, created, position } = await (await wallet()).createAddresses(user.id, userActor(request, user.id));
      if (position) await ctx.caughtUp(position);
      return reply.status(created ? 201 : 200).send({
        addresses: [
          { type: 'primary', address: addresses.primary },
          { type: 'fuel', address: addresses.fuel },
        ],
      });
    },
  );

  app.get(
    '/api/wallet/v1/balance',
    { schema: { tags, summary: 'Confirmed and unconfirmed balance', response: { 200: BalanceSchema, 504: ErrorSchema } } },
    async (request) => {
      const { user } = await requireUser(ctx, request);
      return (await wallet()).balance(user.id);
    },
  );

  app.get(
    '/api/wallet/v1/transactions',
    {
      schema: {
        tags,
        summary: 'Transactions of one of your addresses (the primary one by default), newest first, 10 a page',
        querystring: TransactionsQuery,
        response: { 200: z.object({ data: z.array(TransactionSchema), total: z.number(), page: z.number(), perPage: z.number() }) },
      },
    },
    async (request) => {
      const { user } = await requireUser(ctx, request);
      return (await wallet()).transactions(user.id, request.query);
    },
  );

  app.post(
    '/api/wallet/v1/send',
    {
      schema: {
        tags,
        summary: 'Send AXEL from your primary address; the idempotency key (body or Idempotency-Key header) makes a retry pay nothing more',
        body: SendBody,
        response: { 200: SendAnswer, 400: ErrorSchema, 409: ErrorSchema, 504: ErrorSchema },
      },
      config: limit({ perIp: 60, perAccount: 30 }),
    },
    async (request) => {
      const { user } = await requireUser(ctx, request);
      const body = request.body;
      const header = request.headers['idempotency-key'];
      const idempotencyKey = body.idempotencyKey ?? (typeof header === 'string' && /^[A-Za-z0-9_.:-]{8,100}$/.test(header) ? header : undefined);
      if (!idempotencyKey) throw validation('idempotencyKey');
      const address = body.address?.trim() ?? '';
      if (!isWalletAddress(address)) throw new DomainError(WalletErrors.invalidAddress, { field: 'address' });
      if (!body.amount?.trim()) throw new DomainError(WalletErrors.invalidAmount, { field: 'amount' });
      const result = await (await wallet()).send(
        user.id,
        { address, amount: body.amount, note: body.note?.trim() ?? '', idempotencyKey },
        userActor(request, user.id),
      );
      if (result.position) await ctx.caughtUp(result.position);
      return { txid: result.txid, amount: result.amount, address: result.address };
    },
  );

  app.get(
    '/api/wallet/v1/receive',
    {
      schema: {
        tags,
        summary: 'Your primary address to receive on, with a QR code of it',
        response: { 200: z.object({ address: z.string(), uri: z.string(), qrDataUrl: z.string() }), 409: ErrorSchema },
      },
    },
    async (request) => {
      const { user } = await requireUser(ctx, request);
      const addresses = await (await wallet()).addresses(user.id);
      if (!addresses) throw new DomainError(WalletErrors.noAddress);
      const uri = `axel:${addresses.primary}`;
      return { address: addresses.primary, uri, qrDataUrl: await QRCode.toDataURL(uri, { margin: 1, width: 220 }) };
    },
  );

  app.get(
    '/api/wallet/v1/blockchaininfo',
    { schema: { tags, summary: "The chain: name (development chain or the node's), height, costs", response: { 200: ChainInfoSchema } } },
    async (request) => {
      await requireUser(ctx, request);
      const w = await wallet();
      const info = await withLedgerTimeout(w.chain.info());
      return {
        ...info,
        label: info.development ? 'development chain' : null,
        faucet: Boolean(w.chain.faucet) && mode !== 'off',
        explorerUrl: ctx.config.AXEL_EXPLORER_URL ?? null,
        minimumSend: formatAxel(MINIMUM_SEND),
        costs: { fetch: formatAxel(PIN_FETCH_COST), certificate: formatAxel(PIN_CERTIFICATE_COST) },
      };
    },
  );

  app.get(
    '/api/wallet/v1/masternodes/count',
    { schema: { tags, summary: 'Masternodes of the chain', response: { 200: z.object({ total: z.number(), enabled: z.number() }) } } },
    async (request) => {
      await requireUser(ctx, request);
      return withLedgerTimeout((await wallet()).chain.masternodeCount());
    },
  );

  app.get(
    '/api/wallet/v1/admin/dashboard/',
    {
      schema: {
        tags,
        summary: 'Staff: the chain, the treasury and the wallets',
        response: {
          200: z.object({
            chain: z.string(),
            development: z.boolean(),
            blocks: z.number(),
            wallets: z.number(),
            treasury: z.object({ address: z.string(), confirmed: z.string(), unconfirmed: z.string() }),
            masternodes: z.object({ total: z.number(), enabled: z.number() }),
          }),
        },
      },
    },
    async (request) => {
      await requireStaff(ctx, request);
      const w = await wallet();
      const treasury = await w.treasury();
      const [info, balance, masternodes, wallets] = await Promise.all([
        withLedgerTimeout(w.chain.info()),
        withLedgerTimeout(w.chain.balance(treasury)),
        withLedgerTimeout(w.chain.masternodeCount()),
        countWalletAddresses(ctx.pool),
      ]);
      return {
        chain: info.chain,
        development: info.development,
        blocks: info.blocks,
        wallets,
        treasury: { address: treasury, confirmed: formatAxel(balance.confirmed), unconfirmed: formatAxel(balance.unconfirmed) },
        masternodes,
      };
    },
  );

  if (!ctx.config.AXEL_RPC_URL) {
    app.post(
      '/api/wallet/v1/admin/treasury/fill',
      {
        schema: {
          tags: ['development'],
          summary:
            'Staff (admin:treasury:fill), development chain only: mint test AXEL to the treasury, confirmed with the next block (100 by default, at most 1000); kept on the chain with who did it',
          body: z.object({ amount: AmountText.max(100).optional() }).optional(),
          response: { 200: z.object({ txid: z.string(), amount: z.string(), treasury: z.string() }), 404: ErrorSchema },
        },
        config: limit({ perIp: 20, perAccount: 10 }),
      },
      async (request) => {
        const { user } = await requireStaff(ctx, request, 'admin:treasury:fill');
        const w = await wallet();
        if (!w.chain.faucet) throw new DomainError(WalletErrors.faucetUnavailable);
        const text = request.body?.amount;
        const amount = text === undefined ? TREASURY_FILL_DEFAULT : parseAxel(text);
        if (amount === null || amount <= 0 || amount > FAUCET_MAX) throw new DomainError(WalletErrors.invalidAmount, { field: 'amount' });
        const treasury = await w.treasury();
        const meta = requestMeta(request);
        const actor = {
          actorId: user.id,
          actorKind: 'staff' as const,
          ip: meta.ip,
          userAgent: meta.userAgent,
          client: meta.client,
          correlationId: meta.correlationId,
        };
        const { txid } = await withLedgerTimeout(w.chain.faucet(treasury, amount, `treasury-fill:${user.id}:${randomUUID()}`, actor));
        return { txid, amount: formatAxel(amount), treasury };
      },
    );
  }

  if (mode !== 'off') {
    app.post(
      '/api/wallet/v1/faucet',
      {
        schema: {
          tags: ['development'],
          summary:
            'Development chain only, from this machine only: mint test AXEL to your primary address, or (staff) to the treasury (10 by default, at most 1000)',
          body: FaucetBody,
          response: { 200: z.object({ txid: z.string(), amount: z.string() }), 404: ErrorSchema },
        },
        config: limit({ perIp: 20, perAccount: 10 }),
      },
      async (request) => {
        if (!isLoopbackClient(request)) throw new DomainError(CommonErrors.notFound);
        const { user } = await requireUser(ctx, request);
        const w = await wallet();
        if (!w.chain.faucet) throw new DomainError(WalletErrors.faucetUnavailable);
        const amount = request.body.amount === undefined ? FAUCET_DEFAULT : parseAxel(request.body.amount);
        if (amount === null || amount <= 0 || amount > FAUCET_MAX) throw new DomainError(WalletErrors.invalidAmount, { field: 'amount' });
        let to: string;
        if (request.body.to === 'treasury') {
          // the treasury funds auto-pay payouts: staff fill it on the development chain
          // staff only, under the staff rules (an auditor only reads)
          await requireStaff(ctx, request);
          to = await w.treasury();
        } else {
          const addresses = await w.addresses(user.id);
          if (!addresses) throw new DomainError(WalletErrors.noAddress);
          to = addresses.primary;
        }
        const { txid } = await withLedgerTimeout(w.chain.faucet(to, amount, `faucet:${user.id}:${randomUUID()}`));
        return { txid, amount: formatAxel(amount) };
      },
    );
  }
};
