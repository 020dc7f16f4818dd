import { z } from 'zod';

// Zod compiles fast validators with `new Function` when it may; the app's Content-Security-Policy forbids
// eval, so the browser logs a CSP violation on the first check (Lighthouse counts it against best
// practices). The app's forms are small: the interpreted checks are fast enough. Imported first by every
// module of the device that checks with a schema: the HTTP client (http.ts), the sync transport
// (sync-transport.ts, for pulls, pushes and the care lists), the local writes (appointments.ts), the forms
// (app/ui/use-zod-form.ts, and use-schema-form.ts's loader) and the service worker (sw/sw.ts). Not by the
// app's entry or the replica: Zod then loads with the first of those, after the first screen.
z.config({ jitless: true });
