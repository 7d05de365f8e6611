import {
  certificateBody,
  certificateJson,
  DomainError,
  formatAxel,
  isLink,
  payableLink,
  pinningCost,
  SecureFetchErrors,
  WalletErrors,
  type Certificate,
  type SecureFetchLink,
} from '@axel/domain';
import { deterministicId } from '@axel/platform';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { failpoint } from '../../failpoints';
import { limitsFor } from '../../http/rate-limits';
import { requireSelf } from '../../http/auth';
import { userActor } from '../../http/request-meta';
import type { PaidPinning } from '../ipfs/ipfs.module';
import type { WalletOf } from '../wallet/wallet.service';
import { certificatePdf } from './secure-fetch.certificate-pdf';
import { CertificateQuery, FetchParams, tags } from './secure-fetch.schema';
import { fetchJson, ownLink, runSecureFetchCommand, sha256Hex } from './secure-fetch.service';

/** The certificate of a paid link, rebuilt from its events and checked against the hash the chain carries. */
export const certificateOf = (link: SecureFetchLink): Certificate => {
  const payment = link.payment;
  if (!link.certificated || !payment?.txId || !link.submission || link.collectedAt) throw new DomainError(SecureFetchErrors.certificateNotAvailable);
  const body = certificateBody(link, payment);
  const canonicalSha256 = sha256Hex(certificateJson(body));
  if (canonicalSha256 !== payment.canonicalSha256) throw new Error(`the certificate of ${link.fetchId} no longer matches the hash its payment carries`);
  return { ...body, txId: payment.txId, canonicalSha256 };
};

/** Pay and pin, and the certificate of authenticity (JSON and PDF). */
export const secureFetchPaymentRoutes = (ctx: AppContext, walletOf: WalletOf, pinning: PaidPinning) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);

  app.post(
    '/api/users/:id/secure-fetches/:fetchId/pay',
    {
      schema: {
        tags,
        summary: 'Pay and pin the received files (0.003 AXEL, 0.009 with a certificate) from the confirmed balance; paying again answers the same payment',
        params: FetchParams,
      },
      config: limit({ perIp: 60, perAccount: 30 }),
    },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const actor = userActor(request, user.id);
      const link = payableLink(await ownLink(ctx, user.id, request.params.fetchId));
      let payment = link.payment;
      let dags: Awaited<ReturnType<PaidPinning['dagsOf']>> | undefined;
      if (!payment?.txId) {
        // the certificate is fixed before the payment, so its hash is what the transaction carries;
        // it names each file's IPFS root, built here from the stored file before anything is paid
        const now = ctx.now();
        dags = link.payment ? undefined : await pinning.dagsOf(ctx, link);
        const issue = {
          certificateId: link.certificated ? deterministicId('secure-fetch-certificate', link.fetchId) : null,
          issuedAt: now.toISOString(),
          lastOpened: { ...link.lastOpened },
          ...(dags ? { cids: Object.fromEntries([...dags].map(([itemId, dag]) => [itemId, dag.root])) } : {}),
        };
        const canonicalSha256 = sha256Hex(certificateJson(certificateBody(link, issue)));
        const started = await runSecureFetchCommand(
          ctx,
          link.fetchId,
          { type: 'StartSecureFetchPayment', data: { certificateId: issue.certificateId, lastOpened: issue.lastOpened, canonicalSha256, cids: issue.cids } },
          actor,
          now,
        );
        const pending = isLink(started.state) ? started.state.payment : null;
        if (!pending) throw new DomainError(SecureFetchErrors.nothingToPay);
        let txId = pending.txId;
        if (!txId) {
          try {
            ({ txid: txId } = await (await walletOf(ctx)).payForPinning({
              userId: user.id,
              certificate: link.certificated,
              idempotencyKey: `secure-fetch:${link.fetchId}:${pending.canonicalSha256.slice(0, 32)}`,
              actor,
              data: pending.canonicalSha256,
            }));
          } catch (error) {
            // refused for want of tokens, nothing was paid: the files may be collected again, and a later
            // pay starts afresh; anything else (a ledger timeout) may still have paid, so the payment
            // stays under way and a retry asks the chain again with the same key
            if (error instanceof DomainError && error.code === WalletErrors.insufficientToPin.code) {
              await runSecureFetchCommand(ctx, link.fetchId, { type: 'FailSecureFetchPayment', data: { refusedWith: String(error.code) } }, actor);
            }
            throw error;
          }
          failpoint('secure-fetch:after-pay');
          const paid = await runSecureFetchCommand(
            ctx,
            link.fetchId,
            { type: 'RecordSecureFetchPayment', data: { txId, amount: pinningCost({ certificate: link.certificated }) } },
            actor,
          );
          await ctx.caughtUp(paid.position);
        }
        payment = { ...pending, txId };
      }
      // pay and pin: the paid files are pinned (each once, whichever click or retry gets here first)
      await pinning.pinPaid(ctx, await ownLink(ctx, user.id, link.fetchId), actor, dags);
      const after = await ownLink(ctx, user.id, link.fetchId);
      // what was paid, and the link as the owner sees it now (active, with its transaction), also at the top
      const fetch = fetchJson(ctx, after);
      return { ...fetch, txId: payment.txId, amount: formatAxel(pinningCost({ certificate: link.certificated })), fetch };
    },
  );

  app.get(
    '/api/users/:id/secure-fetches/:fetchId/certificate',
    {
      schema: { tags, summary: 'The certificate of authenticity (JSON, or PDF with format=pdf)', params: FetchParams, querystring: CertificateQuery },
      config: limit({ perIp: 120, perAccount: 60 }),
    },
    async (request, reply) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const certificate = certificateOf(await ownLink(ctx, user.id, request.params.fetchId));
      if (request.query.format === 'json') return certificate;
      const pdf = await certificatePdf(certificate);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="certificate-${certificate.fetchId}.pdf"`)
        .header('x-content-type-options', 'nosniff')
        .send(pdf);
    },
  );
};
