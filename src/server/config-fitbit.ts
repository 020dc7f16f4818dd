import { deriveKey } from './services/signing';
import { z } from 'zod';

// FITBIT_* (services/fitbit/README.md), kept apart so config.ts does not grow. Fitbit is set up when
// FITBIT_CLIENT_ID is set; the other settings have Fitbit's own addresses as defaults (tests point them
// at a local fake). The tokens Fitbit gives are kept encrypted with a key made from FITBIT_TOKEN_KEY, or,
// without it, from the server's one secret (JWT_SECRET, or the one kept in DATA_DIR): changing either
// makes the kept tokens unreadable, and the patients connect Fitbit again.

export const DEFAULT_FITBIT_AUTHORIZE_URL = 'https://www.fitbit.com/oauth2/authorize';
export const DEFAULT_FITBIT_TOKEN_URL = 'https://api.fitbit.com/oauth2/token';
export const DEFAULT_FITBIT_API_URL = 'https://api.fitbit.com';

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);

const address = (fallback: string) =>
  z.preprocess(
    emptyToUndefined,
    z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// address' })
      .refine((value) => !/[?#]/.test(value), 'must be an address with no query or fragment')
      .default(fallback)
      .transform((value) => value.replace(/\/+$/, '')),
  );

/** The FITBIT_* variables of the environment's schema (config.ts spreads them into its own). */
export const fitbitEnvShape = {
  FITBIT_CLIENT_ID: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be the OAuth 2.0 Client ID Fitbit gave the app')
      .optional(),
  ),
  /** Only for a "Server" (confidential) Fitbit app; a "Personal"/"Client" app with PKCE sends none. */
  FITBIT_CLIENT_SECRET: z.preprocess(emptyToUndefined, z.string().max(200).optional()),
  FITBIT_AUTHORIZE_URL: address(DEFAULT_FITBIT_AUTHORIZE_URL),
  FITBIT_TOKEN_URL: address(DEFAULT_FITBIT_TOKEN_URL),
  FITBIT_API_URL: address(DEFAULT_FITBIT_API_URL),
  FITBIT_TOKEN_KEY: z.preprocess(
    emptyToUndefined,
    z.string().min(32, 'must be at least 32 characters').max(500).optional(),
  ),
};

export type FitbitConfig = {
  clientId: string;
  clientSecret: string | undefined;
  authorizeUrl: string;
  tokenUrl: string;
  apiUrl: string;
  /** PUBLIC_URL + '/fitbit/callback': the page Fitbit sends the patient back to. */
  redirectUri: string;
  /** AES-256 key of the tokens at rest (32 bytes). */
  tokenKey: Buffer;
};

type FitbitVars = {
  FITBIT_CLIENT_ID?: string | undefined;
  FITBIT_CLIENT_SECRET?: string | undefined;
  FITBIT_AUTHORIZE_URL: string;
  FITBIT_TOKEN_URL: string;
  FITBIT_API_URL: string;
  FITBIT_TOKEN_KEY?: string | undefined;
};

/** Fitbit's settings, or undefined when FITBIT_CLIENT_ID is unset (the routes then answer 503). */
export function fitbitConfig(
  vars: FitbitVars,
  publicUrl: string,
  serverSecret: string,
): FitbitConfig | undefined {
  if (!vars.FITBIT_CLIENT_ID) return undefined;
  // A key of its own purpose (services/signing.ts): used for nothing else.
  const tokenKey = deriveKey(vars.FITBIT_TOKEN_KEY ?? serverSecret, 'fitbit-tokens');
  return {
    clientId: vars.FITBIT_CLIENT_ID,
    clientSecret: vars.FITBIT_CLIENT_SECRET,
    authorizeUrl: vars.FITBIT_AUTHORIZE_URL,
    tokenUrl: vars.FITBIT_TOKEN_URL,
    apiUrl: vars.FITBIT_API_URL,
    redirectUri: `${publicUrl}/fitbit/callback`,
    tokenKey,
  };
}
