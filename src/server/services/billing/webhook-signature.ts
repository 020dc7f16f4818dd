import Stripe from 'stripe';
import type { StripeEventLike } from './stripe-objects';

// Webhook signatures, Stripe's scheme (`Stripe-Signature: t=…,v1=HMAC-SHA256(t.body)`), through the
// SDK's own helpers. Both providers' events pass here: Stripe's, and the built-in test-mode provider's,
// which signs its events the same way so that they take the same road through the same handler.

/** The header is missing, or the signature or its time does not hold: the sender is not believed. */
export class WebhookSignatureError extends Error {}

/** Signed, but not a Stripe event (not JSON, or no id, type, time or object). */
export class WebhookBodyError extends Error {}

/** The five minutes Stripe allows between signing and receiving (a replay of an old capture fails). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

// Webhook signatures need no key and make no request: one SDK instance, for its `webhooks` helpers only.
let webhookClient: Stripe | null = null;
function webhooks(): Stripe['webhooks'] {
  webhookClient ??= new Stripe('sk_webhooks_only');
  return webhookClient.webhooks;
}

function isStripeEvent(value: unknown): value is StripeEventLike {
  if (!value || typeof value !== 'object') return false;
  const event = value as Record<string, unknown>;
  const data = event.data as Record<string, unknown> | null | undefined;
  return (
    typeof event.id === 'string' &&
    typeof event.type === 'string' &&
    typeof event.created === 'number' &&
    typeof data === 'object' &&
    data !== null &&
    typeof data.object === 'object' &&
    data.object !== null
  );
}

/**
 * The event in a webhook's raw body, once its Stripe-Signature header proves Stripe (or the test-mode
 * provider) sent it with `secret` within the tolerance. The body must be the bytes received: a parsed
 * and re-serialized body no longer matches its signature.
 */
export function verifyStripeEvent(
  rawBody: Buffer | string,
  signature: string | undefined,
  secret: string,
): StripeEventLike {
  if (!signature) throw new WebhookSignatureError('The webhook has no Stripe-Signature header.');
  let event: unknown;
  try {
    event = webhooks().constructEvent(rawBody, signature, secret, SIGNATURE_TOLERANCE_SECONDS);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError)
      throw new WebhookSignatureError(`The webhook signature could not be verified: ${error.message}`, {
        cause: error,
      });
    throw new WebhookBodyError('The webhook body is not JSON.', { cause: error });
  }
  if (!isStripeEvent(event)) throw new WebhookBodyError('The webhook body is not a Stripe event.');
  return { id: event.id, type: event.type, created: event.created, data: { object: event.data.object } };
}

/** The Stripe-Signature header for `payload` signed with `secret` now, as Stripe signs its webhooks. */
export function signStripeEvent(payload: string, secret: string): string {
  return webhooks().generateTestHeaderString({ payload, secret });
}
