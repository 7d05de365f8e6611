import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/** What the fake was sent: the path (with its query) and the form body. */
export interface StripeRequest {
  readonly path: string;
  readonly body: URLSearchParams;
}

/** A test's own answer to a request, or undefined for the fake's defaults. */
export type StripeAnswer = (req: IncomingMessage, sent: StripeRequest, all: readonly StripeRequest[]) => { status?: number; body: unknown } | undefined;

/**
 * A stand-in for Stripe's API on this machine (no network in tests): it keeps every request and
 * answers checkout session creation (`cs_test_<n>` with a checkout URL); anything else is the
 * test's `answer` or a 404 in Stripe's error shape. Point the app at it with STRIPE_API_URL.
 */
export const startFakeStripe = async (answer: StripeAnswer = () => undefined) => {
  const requests: StripeRequest[] = [];
  let sessions = 0;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const sent = { path: req.url ?? '', body: new URLSearchParams(raw) };
      requests.push(sent);
      res.setHeader('content-type', 'application/json');
      const own = answer(req, sent, requests);
      if (own) {
        res.statusCode = own.status ?? 200;
        return res.end(JSON.stringify(own.body));
      }
      if (req.url === '/v1/checkout/sessions') {
        const id = `cs_test_${++sessions}`;
        return res.end(JSON.stringify({ id, object: 'checkout.session', url: `https://checkout.stripe.test/pay/${id}` }));
      }
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'unknown' } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
};

const stripe = new Stripe('sk_test_unused');

/** Posts a webhook to the app as Stripe does: raw JSON and its signature header, no cookie and no CSRF header. */
export const postStripeWebhook = async (appUrl: string, event: Record<string, unknown>, secret: string) => {
  const payload = JSON.stringify({ object: 'event', api_version: '2026-10-28.endive', created: Math.floor(Date.now() / 1000), livemode: false, ...event });
  const signature = stripe.webhooks.generateTestHeaderString({ payload, secret });
  const res = await fetch(`${appUrl}/api/webhooks/stripe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: payload,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
