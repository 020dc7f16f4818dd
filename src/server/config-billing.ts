import { z } from 'zod';
import { ConfigError } from './config-error';

// The payment provider's settings (STRIPE_*), checked together: a key without its webhook secret would
// take payments whose confirmations could never be verified, so the server refuses to start.

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);

/** The STRIPE_* variables of the environment's schema (config.ts spreads them into its own). */
export const stripeEnvShape = {
  STRIPE_SECRET_KEY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]{8,}$/, 'must be a Stripe secret key (sk_test_…, sk_live_…)')
      .optional(),
  ),
  STRIPE_WEBHOOK_SECRET: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/=]{8,}$/, 'must be a webhook signing secret (whsec_…)')
      .optional(),
  ),
  /** A Stripe-compatible server's address instead of api.stripe.com (tests, a local mock). */
  STRIPE_API_URL: z.preprocess(
    emptyToUndefined,
    z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// address' }).optional(),
  ),
};

export type StripeConfig = {
  secretKey: string;
  webhookSecret: string;
  /** A Stripe-compatible server instead of api.stripe.com. */
  apiUrl: string | undefined;
};

type StripeVars = {
  STRIPE_SECRET_KEY?: string | undefined;
  STRIPE_WEBHOOK_SECRET?: string | undefined;
  STRIPE_API_URL?: string | undefined;
};

export function stripeConfig(vars: StripeVars): StripeConfig | undefined {
  const { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_URL: apiUrl } = vars;
  const problems: string[] = [];
  if (secretKey && !webhookSecret)
    problems.push('STRIPE_WEBHOOK_SECRET: needed with STRIPE_SECRET_KEY (webhooks are verified with it)');
  if (!secretKey) {
    if (webhookSecret) problems.push('STRIPE_WEBHOOK_SECRET: needs STRIPE_SECRET_KEY');
    if (apiUrl) problems.push('STRIPE_API_URL: needs STRIPE_SECRET_KEY');
  }
  if (problems.length > 0)
    throw new ConfigError(
      `Kincare cannot start: invalid configuration\n${problems.map((line) => `  ${line}`).join('\n')}`,
    );
  if (!secretKey || !webhookSecret) return undefined;
  return { secretKey, webhookSecret, apiUrl: apiUrl?.replace(/\/$/, '') };
}
