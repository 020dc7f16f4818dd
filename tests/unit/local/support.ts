import Dexie from 'dexie';
import type { Profile } from '../../../src/domain/auth';
import { AxiosError, AxiosHeaders, type AxiosAdapter, type InternalAxiosRequestConfig } from 'axios';

// Helpers of the device-side tests (jsdom with fake-indexeddb): tokens, a fake server behind axios, and
// a search of everything the device stores.

/** A token of the server's shape for `sub` (the device never checks the signature). */
export const tokenFor = (sub: string) =>
  `header.${btoa(JSON.stringify({ sub, sid: `${sub}-session` })).replace(/=+$/, '')}.signature`;

export type Call = { method: string; url: string; authorization: string | null; body: unknown };
export type Answer = { status: number; data?: unknown };

/**
 * An axios adapter that answers from `route` and records every call: what axios would do with a real
 * server, including rejecting a non-2xx answer with an AxiosError that carries the response.
 */
export function fakeServer(route: (call: Call) => Answer): { adapter: AxiosAdapter; calls: Call[] } {
  const calls: Call[] = [];
  const adapter: AxiosAdapter = async (config: InternalAxiosRequestConfig) => {
    const headers = AxiosHeaders.from(config.headers);
    const authorization = headers.get('Authorization');
    const call: Call = {
      method: (config.method ?? 'get').toUpperCase(),
      url: `${config.url ?? ''}`,
      authorization: typeof authorization === 'string' ? authorization : null,
      body: typeof config.data === 'string' ? (JSON.parse(config.data) as unknown) : (config.data as unknown),
    };
    calls.push(call);
    const answer = route(call);
    const response = {
      data: answer.data ?? {},
      status: answer.status,
      statusText: '',
      headers: {},
      config,
      request: {},
    };
    if (config.validateStatus && !config.validateStatus(answer.status))
      throw new AxiosError(
        `Request failed with status code ${answer.status}`,
        AxiosError.ERR_BAD_REQUEST,
        config,
        {},
        response,
      );
    return response;
  };
  return { adapter, calls };
}

/** Every place on the device (localStorage keys, IndexedDB database/table) whose stored data contains `text`. */
export async function storedAnywhere(text: string): Promise<string[]> {
  const places: string[] = [];
  for (let index = 0; index < localStorage.length; index++) {
    const key = localStorage.key(index);
    if (key !== null && localStorage.getItem(key)?.includes(text)) places.push(`localStorage ${key}`);
  }
  for (const { name } of await indexedDB.databases()) {
    if (!name) continue;
    // Dexie's dynamic mode: opens the database as it is, without a schema, never upgrading it.
    const db = new Dexie(name);
    await db.open();
    try {
      for (const table of db.tables) {
        if (JSON.stringify(await table.toArray()).includes(text))
          places.push(`indexedDB ${name}/${table.name}`);
      }
    } finally {
      db.close();
    }
  }
  return places.sort();
}

/** The profile the server answers for a patient account (what sign-in stores in the replica). */
export function profileOf(id: string, name: string, email: string): Profile {
  return {
    id,
    name,
    role: 'Patient',
    email,
    zip_code: '10001',
    patient_id: id,
    caregiver_id: null,
    stripe_customer_id: null,
    email_verified: true,
    birth_date: null,
    age: null,
    gender: null,
    race: null,
    ethnicity: null,
    phone: null,
    address: null,
    city: null,
    state: null,
    photo_url: null,
    beta_policy_accepted_at: '2025-07-01T00:00:00.000Z',
  };
}
