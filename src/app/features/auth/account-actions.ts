// The account calls of the sign-in page, loaded when the person submits a form rather than with the page:
// they bring the HTTP client, the replica (Dexie) and the sync engine, which the page does not need to
// show itself (the first-load budget of tests/build/budget.mjs).

import type * as AccountModule from '../../../local/account';
import type * as HttpModule from '../../../local/http';

type Account = typeof AccountModule;
type Http = typeof HttpModule;

const account = (): Promise<Account> => import('../../../local/account');

export async function signIn(...args: Parameters<Account['signIn']>) {
  return (await account()).signIn(...args);
}
export async function register(...args: Parameters<Account['register']>) {
  return (await account()).register(...args);
}
export async function requestPasswordReset(...args: Parameters<Account['requestPasswordReset']>) {
  return (await account()).requestPasswordReset(...args);
}
export async function verifyOtp(...args: Parameters<Account['verifyOtp']>) {
  return (await account()).verifyOtp(...args);
}
export async function resetPassword(...args: Parameters<Account['resetPassword']>) {
  return (await account()).resetPassword(...args);
}

/** The HTTP client itself, for a call of the page's own. */
export async function httpClient(): Promise<Http['http']> {
  return (await import('../../../local/http')).http;
}
