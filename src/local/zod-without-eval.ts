import { z } from 'zod';

// Zod compiles fast validators with `new Function` when it may; the app's Content-Security-Policy forbids
// eval, so the browser logs a CSP violation on the first check (Lighthouse counts it against best
// practices). The app's forms are small: the interpreted checks are fast enough. Imported first by every
// module of the device that checks with a schema before anything is checked: the replica (db.ts), the HTTP
// client (http.ts), the forms (app/ui/use-zod-form.ts) and the service worker (sw/sw.ts). Not by the
// app's entry: Zod then loads with the first of those, not before the first screen.
z.config({ jitless: true });
