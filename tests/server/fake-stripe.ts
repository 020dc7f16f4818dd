import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createStripeBooks,
  newId,
  StripeFailure,
  type Form,
  type FormValue,
  type StripeObject,
} from './fake-stripe-books';

/*
 * A local server that answers like Stripe's API (v1), for exactly the calls the Stripe provider makes:
 * POST /v1/customers, GET /v1/customers/:id, GET /v1/prices (lookup_keys, active, limit), POST /v1/products,
 * POST /v1/prices, POST /v1/checkout/sessions, GET /v1/checkout/sessions/:id, POST /v1/subscriptions,
 * GET|POST|DELETE /v1/subscriptions/:id (POST: items, metadata, cancel_at_period_end), POST
 * /v1/billing_portal/sessions; GET /v1/customers/:id expands `invoice_settings.default_payment_method`. Bodies are form-encoded with brackets (`metadata[userId]=…`),
 * answers are Stripe-shaped JSON, errors are `{ error: { type, code, message } }` (404 resource_missing).
 *
 *   const stripe = await startFakeStripe();   // on a free port of 127.0.0.1
 *   createStripeProvider({ secretKey: stripe.secretKey, webhookSecret, apiUrl: stripe.url });
 *   stripe.requests                           // every request: method, path, body (parsed), idempotencyKey, authorization, status
 *   stripe.failNext(2, 503)                   // the next 2 requests answer 503 (429, 500, 503; 'drop': connection
 *                                             // closed unanswered; 'lose-answer': done, then the connection closed)
 *   stripe.completeCheckout(sessionId)        // the person paid: subscription made, card saved, session returned
 *   stripe.saveCard(customerId, '4242')       // a card on file (the customer's default payment method)
 *   stripe.event('checkout.session.completed', session)  // a Stripe event (sign it with signTestEvent)
 *   stripe.objects.customers / prices / products / subscriptions / sessions   // Maps by id, to read or change
 *   stripe.requestsTo('/v1/customers', 'POST')  // the requests to one path (and method)
 *   stripe.checkoutUrlBase = null             // sessions made from now on have `url: null`
 *   stripe.reset();                           // between tests: no objects, requests, keys or failures
 *   await stripe.stop();
 *
 * Idempotency-Key: a POST with a key seen before answers the first answer again (same parameters) or 400
 * idempotency_error (other parameters). Any key other than `secretKey` answers 401 like Stripe.
 *
 * This file is the server (requests recorded, failures played, idempotency kept); the objects and what
 * each path does to them are the books' (fake-stripe-books.ts).
 */

export type { StripeObject };
export type RecordedRequest = {
  method: string;
  path: string;
  /** The form of a POST, or the query of a GET, parsed (`a[b][0]=c` -> `{ a: { b: ['c'] } }`). */
  body: Form;
  idempotencyKey: string | null;
  authorization: string | null;
  stripeVersion: string | null;
  status: number;
};
export type Failure = 429 | 500 | 503 | 'drop' | 'lose-answer';

/** `a[b][0][c]=v&…` as nested objects; objects whose keys are all indices become arrays. */
export function parseStripeForm(text: string): Form {
  const root: Form = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const path = name.replace(/]/g, '').split('[');
    let node: Form = root;
    path.forEach((segment, index) => {
      if (index === path.length - 1) node[segment] = value;
      else {
        const next = node[segment];
        node = next && typeof next === 'object' && !Array.isArray(next) ? next : (node[segment] = {});
      }
    });
  }
  const arrays = (value: FormValue): FormValue => {
    if (typeof value === 'string' || Array.isArray(value)) return value;
    const entries = Object.entries(value).map(([key, item]) => [key, arrays(item)] as const);
    if (entries.length > 0 && entries.every(([key]) => /^\d+$/.test(key)))
      return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, item]) => item);
    return Object.fromEntries(entries);
  };
  return arrays(root) as Form;
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;

/** The server: every request recorded, failures played, idempotency keys kept; the books answer the rest. */
export async function startFakeStripe(options: { secretKey?: string } = {}) {
  const secretKey = options.secretKey ?? `sk_test_${randomBytes(18).toString('hex')}`;
  const books = createStripeBooks({ checkoutUrlBase: () => fake.checkoutUrlBase });
  const { objects } = books;
  const requests: RecordedRequest[] = [];
  const idempotent = new Map<string, { fingerprint: string; status: number; answer: unknown }>();
  const failures: Failure[] = [];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake-stripe');
    const method = req.method ?? 'GET';
    const header = (name: string) => {
      const value = req.headers[name];
      return typeof value === 'string' ? value : null;
    };
    const entry: RecordedRequest = {
      method,
      path: url.pathname,
      body: parseStripeForm(method === 'GET' ? url.search.slice(1) : raw),
      idempotencyKey: header('idempotency-key'),
      authorization: header('authorization'),
      stripeVersion: header('stripe-version'),
      status: 0,
    };
    requests.push(entry);
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      entry.status = status;
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req'), ...headers });
      res.end(JSON.stringify(body));
    };
    const failure = failures.shift();
    if (failure === 'drop') {
      entry.status = -1;
      req.socket.destroy();
      return;
    }
    if (failure === 500 || failure === 503)
      return answer(failure, { error: { type: 'api_error', message: 'An unknown error occurred.' } });
    if (failure === 429)
      return answer(429, {
        error: { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests.' },
      });
    if (entry.authorization !== `Bearer ${secretKey}`) {
      const given = entry.authorization?.replace(/^Bearer /, '') ?? '';
      // Like Stripe: the key shown only by its last four characters.
      const message = `Invalid API Key provided: ${given.slice(0, 8)}${'*'.repeat(Math.max(0, given.length - 12))}${given.slice(-4)}`;
      return answer(401, { error: { type: 'invalid_request_error', message } });
    }
    const key = method === 'POST' ? entry.idempotencyKey : null;
    const fingerprint = `${url.pathname} ${raw}`;
    const earlier = key ? idempotent.get(key) : undefined;
    if (earlier && earlier.fingerprint !== fingerprint)
      return answer(400, {
        error: {
          type: 'idempotency_error',
          message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
        },
      });
    if (earlier) return answer(earlier.status, earlier.answer, { 'idempotent-replayed': 'true' });
    let result: { status: number; answer: unknown };
    try {
      result = { status: 200, answer: books.route(method, url.pathname, entry.body) };
    } catch (error) {
      if (!(error instanceof StripeFailure)) throw error;
      result = {
        status: error.status,
        answer: { error: { type: error.type, code: error.code, message: error.message, param: error.param } },
      };
    }
    // Stripe keeps the answer (a copy: later changes to the object are not replayed).
    const kept = JSON.parse(JSON.stringify(result.answer)) as unknown;
    if (key) idempotent.set(key, { fingerprint, status: result.status, answer: kept });
    if (failure === 'lose-answer') {
      entry.status = -1;
      req.socket.destroy();
      return;
    }
    answer(result.status, kept);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;

  const fake = {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    objects,
    requests,
    checkoutUrlBase: 'https://checkout.stripe.com/c/pay/' as string | null,
    /** Requests to a path (`/v1/customers`), optionally of one method. */
    requestsTo(path: string, method?: string): RecordedRequest[] {
      return requests.filter((entry) => entry.path === path && (!method || entry.method === method));
    },
    failNext(count: number, failure: Failure = 500): void {
      for (let index = 0; index < count; index += 1) failures.push(failure);
    },
    saveCard: (customerId: string, last4?: string): string => books.saveCard(customerId, last4),
    completeCheckout: (sessionId: string): StripeObject => books.completeCheckout(sessionId),
    event: (type: string, object: StripeObject) => books.event(type, object),
    reset(): void {
      books.clear();
      idempotent.clear();
      requests.length = 0;
      failures.length = 0;
      fake.checkoutUrlBase = 'https://checkout.stripe.com/c/pay/';
    },
    async stop(): Promise<void> {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
  return fake;
}
