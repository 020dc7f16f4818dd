import { ConfigError } from './config';

// The payment provider's settings (STRIPE_*), checked together: a key without its webhook secret would
// take payments whose confirmations could never be verified, so the server refuses to start.

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
