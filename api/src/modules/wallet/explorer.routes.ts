import { CommonErrors, DomainError, formatAxel, isTransactionId, WalletErrors } from '@axel/domain';
import type { ChainTransactionDetail } from '@axel/platform/chain/index';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { ErrorSchema } from './wallet.schema';
import { withLedgerTimeout, type WalletService } from './wallet.service';

const IdParams = z.object({ id: z.string().max(100) });

/** The external explorer's page of a transaction: `{id}` in AXEL_EXPLORER_URL is replaced, else the id is appended. */
export const externalExplorerUrl = (template: string, id: string): string =>
  template.includes('{id}') ? template.replaceAll('{id}', encodeURIComponent(id)) : `${template.replace(/\/?$/, '/')}${encodeURIComponent(id)}`;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

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

const page = (d: ReturnType<typeof detailView>, development: boolean) => {
  const row = (label: string, value: string) => `<tr><th>${escapeHtml(label)}</th><td>${value}</td></tr>`;
  const status = d.confirmations === 0 ? 'Unconfirmed (waiting for a block)' : `${d.confirmations} confirmation${d.confirmations === 1 ? '' : 's'}`;
  const linked = d.linkedTransactions.length
    ? `<ul>${d.linkedTransactions.map((id) => `<li><a href="/transaction/${escapeHtml(id)}"><code>${escapeHtml(id)}</code></a></li>`).join('')}</ul>`
    : '<p>None.</p>';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Transaction ${escapeHtml(d.txid.slice(0, 16))}… · AXEL explorer</title>
<style>body{font-family:sans-serif;max-width:860px;margin:2rem auto;padding:0 1rem}th{text-align:left;padding-right:1rem;vertical-align:top}td{word-break:break-all}code{font-size:.9em}.chain{color:#a15c00}</style>
</head><body><h1>AXEL transaction</h1>${development ? '<p class="chain" data-testid="development-chain">Development chain: these tokens have no value outside this installation.</p>' : ''}
<table data-testid="transaction">${[
    row('Transaction', `<code>${escapeHtml(d.txid)}</code>`),
    row('Status', escapeHtml(status)),
    row('Amount', `${escapeHtml(d.amount)} AXEL`),
    row('From', d.from ? `<code>${escapeHtml(d.from)}</code>` : 'Newly minted'),
    row('To', `<code>${escapeHtml(d.to)}</code>`),
    row('Time', escapeHtml(d.timestamp)),
    ...(d.data ? [row('Data', `<code>${escapeHtml(d.data)}</code>`)] : []),
    row(
      'Block',
      d.blockIndex === null ? 'Not mined yet' : `${d.blockIndex} (<code>${escapeHtml(d.blockHash ?? '')}</code>) at ${escapeHtml(d.blockTime ?? '')}`,
    ),
  ].join('')}</table><h2>Other transactions of this block</h2>${linked}<p><a href="/transaction/search">Search another transaction</a></p></body></html>`;
};

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

  app.get('/transaction/:id', { schema: { hide: true, params: IdParams } }, async (request, reply) => {
    const id = request.params.id;
    const template = ctx.config.AXEL_EXPLORER_URL;
    if (template && isTransactionId(id)) return reply.redirect(externalExplorerUrl(template, id), 302);
    // the search page and malformed ids belong to the web app (its search form, its 404 page)
    if (!isTransactionId(id)) return reply.callNotFound();
    const wantsHtml = /text\/html/.test(request.headers.accept ?? '');
    try {
      const { detail, development } = await find(id);
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page(detail, development));
    } catch (error) {
      if (!wantsHtml || !(error instanceof DomainError) || error.code !== WalletErrors.transactionNotFound.code) throw error;
      return reply
        .status(404)
        .type('text/html; charset=utf-8')
        .send(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Transaction not found</title></head><body><h1>Transaction not found</h1><p>No transaction <code>${escapeHtml(id)}</code> on this chain.</p><p><a href="/transaction/search">Search another transaction</a></p></body></html>`,
        );
    }
  });
};
