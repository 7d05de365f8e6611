import { CommonErrors, DomainError, formatAxel, isTransactionId, WalletErrors } from '@axel/domain';
import type { ChainTransactionDetail } from '@axel/platform/chain/index';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { LOCAL_TIMES_PATH, LOCAL_TIMES_SCRIPT, transactionNotFoundPage, transactionPage } from './explorer.page';
import { ErrorSchema } from './wallet.schema';
import { withLedgerTimeout, type WalletService } from './wallet.service';

const IdParams = z.object({ id: z.string().max(100) });

/** The external explorer's page of a transaction: `{id}` in AXEL_EXPLORER_URL is replaced, else the id is appended. */
export const externalExplorerUrl = (template: string, id: string): string =>
  template.includes('{id}') ? template.replaceAll('{id}', encodeURIComponent(id)) : `${template.replace(/\/?$/, '/')}${encodeURIComponent(id)}`;

export const TransactionDetailSchema = z.object({
  txid: z.string(),
  from: z.string().nullable(),
  to: z.string(),
  amount: z.string(),
  timestamp: z.string(),
  confirmations: z.number(),
  blockIndex: z.number().nullable(),
  blockHash: z.string().nullable(),
  blockTime: z.string().nullable(),
  linkedTransactions: z.array(z.string()),
  /** The data payload (hex) the transaction carries, e.g. a Secure Fetch certificate's SHA-256. */
  data: z.string().nullable(),
});

const detailView = (tx: ChainTransactionDetail) => ({
  txid: tx.txid,
  from: tx.from,
  to: tx.to,
  amount: formatAxel(tx.amount),
  timestamp: tx.time,
  confirmations: tx.confirmations,
  blockIndex: tx.blockHeight,
  blockHash: tx.blockHash,
  blockTime: tx.blockTime,
  linkedTransactions: [...tx.linked],
  data: tx.data ?? null,
});

/**
 * The public explorer: `/transaction/:id` goes to AXEL_EXPLORER_URL when set; without it the
 * product shows the transaction itself (the development chain has no other explorer).
 */
export const explorerRoutes = (ctx: AppContext, wallet: () => Promise<WalletService>) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  const find = async (id: string) => {
    if (!isTransactionId(id)) throw new DomainError(CommonErrors.validation, { fields: { id: 'wallet.validation.transactionId' } });
    const w = await wallet();
    const tx = await withLedgerTimeout(w.chain.transaction(id));
    if (!tx) throw new DomainError(WalletErrors.transactionNotFound);
    return { detail: detailView(tx), development: w.chain.kind === 'development' };
  };

  app.get(
    '/api/wallet/v1/explorer/transactions/:id',
    {
      schema: {
        tags: ['wallet'],
        summary: 'Public: a transaction with its block, confirmations and the other transactions of its block',
        params: IdParams,
        response: { 200: TransactionDetailSchema.extend({ explorerUrl: z.string().nullable() }), 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => {
      const { detail } = await find(request.params.id);
      const template = ctx.config.AXEL_EXPLORER_URL;
      return { ...detail, explorerUrl: template ? externalExplorerUrl(template, detail.txid) : null };
    },
  );

  app.get(LOCAL_TIMES_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(LOCAL_TIMES_SCRIPT),
  );

  app.get('/transaction/:id', { schema: { hide: true, params: IdParams } }, async (request, reply) => {
    const id = request.params.id;
    const template = ctx.config.AXEL_EXPLORER_URL;
    if (template && isTransactionId(id)) return reply.redirect(externalExplorerUrl(template, id), 302);
    // the search page and malformed ids belong to the web app (its search form, its 404 page)
    if (!isTransactionId(id)) return reply.callNotFound();
    const wantsHtml = /text\/html/.test(request.headers.accept ?? '');
    try {
      const { detail, development } = await find(id);
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(transactionPage(detail, development));
    } catch (error) {
      if (!wantsHtml || !(error instanceof DomainError) || error.code !== WalletErrors.transactionNotFound.code) throw error;
      return reply.status(404).type('text/html; charset=utf-8').send(transactionNotFoundPage(id));
    }
  });
};
