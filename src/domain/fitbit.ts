import { z } from 'zod';

// Fitbit (src/server/services/fitbit/README.md): the contract between the server's /api/fitbit
// routes and the app. The server keeps each patient's Fitbit tokens (encrypted) and answers the last 30
// days of steps, resting heart rate and sleep; the app keeps the last answer on the device for offline.

/** POST /api/fitbit/callback: the code Fitbit sent to /fitbit/callback, and the signed-in person's id. */
export const fitbitCallbackBodySchema = z.object({
  code: z
    .string({ error: 'code is required.' })
    .trim()
    .min(1, 'code is required.')
    .max(512, 'code is too long.')
    .regex(/^[A-Za-z0-9._~-]+$/, 'code is not valid.'),
  userId: z.uuid({ error: 'userId must be a user id (a UUID).' }),
  /** The state Fitbit sent back with the code; checked against the one the server gave when sent. */
  state: z
    .string()
    .max(200, 'state is not valid.')
    .regex(/^[A-Za-z0-9._~-]+$/, 'state is not valid.')
    .optional(),
});
export type FitbitCallbackBody = z.infer<typeof fitbitCallbackBodySchema>;

/** One day of GET /api/fitbit/data; null where Fitbit has nothing for that day. */
export const fitbitDaySchema = z.object({
  date: z.string(),
  steps: z.number().nullable(),
  resting_heart_rate: z.number().nullable(),
  sleep_minutes: z.number().nullable(),
});
export type FitbitDay = z.infer<typeof fitbitDaySchema>;

/**
 * GET /api/fitbit/data?patient=: whether the patient's Fitbit is connected and, when it is, the last 30
 * days (oldest first). `reconnect` is true when Fitbit ended the connection (a revoked refresh token):
 * the patient must connect again. `set_up` is false on a server without a Fitbit app (FITBIT_CLIENT_ID
 * unset): there is nothing to connect to, which is a fact to show rather than an error to log.
 */
export const fitbitDataSchema = z.object({
  set_up: z.boolean(),
  connected: z.boolean(),
  reconnect: z.boolean(),
  days: z.array(fitbitDaySchema),
  /** When the server last read these from Fitbit (ISO), null when never. */
  fetched_at: z.string().nullable(),
});
export type FitbitData = z.infer<typeof fitbitDataSchema>;

/** What a patient without a Fitbit connection reads; `setUp` false when the server has no Fitbit app. */
export const notConnectedFitbit = (setUp: boolean): FitbitData => ({
  set_up: setUp,
  connected: false,
  reconnect: false,
  days: [],
  fetched_at: null,
});

/** GET /api/fitbit/authorize: where to send the patient to allow Kincare to read their Fitbit. */
export const fitbitAuthorizeSchema = z.object({ url: z.string() });

export const FITBIT_DAYS = 30;

/** The answer of POST /api/fitbit/callback and DELETE /api/fitbit: what happened, for the toast. */
export const fitbitMessageSchema = z.object({ message: z.string() });

/** GET /api/fitbit/data's query: a caregiver names the patient; a patient may leave it out (their own). */
export const fitbitDataQuerySchema = z.object({
  patient: z.uuid({ error: 'patient must be a patient id (a UUID).' }).optional(),
});

/** What the server and the app say about Fitbit, word for word in both. */
export const FITBIT_MESSAGES = {
  notSetUp: 'Connecting a Fitbit is not available in this Kincare yet. Your other records work as usual.',
  connected: 'Fitbit connected.',
  disconnected: 'Fitbit disconnected.',
  notConnected: 'Fitbit is not connected.',
  noPendingConnection: 'This Fitbit sign-in has expired or was already used. Please connect Fitbit again.',
  codeRefused:
    'Fitbit did not accept this sign-in (the code is wrong, used or expired). Please connect Fitbit again.',
  wrongUser: 'This Fitbit sign-in belongs to another account.',
  unavailable: 'Fitbit could not be reached. Please try again in a few minutes.',
  broken: 'Fitbit gave an answer that could not be read. Please try again in a few minutes.',
  ended: 'Fitbit ended the connection (access was removed). Please connect Fitbit again.',
} as const;

/** How long the server keeps Fitbit's days before reading them again (ms): Home opening is not a reason. */
export const FITBIT_REFRESH_MS = 15 * 60 * 1000;
