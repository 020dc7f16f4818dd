import * as z from 'zod/v4';

// Zod as the browser gets it. Zod compiles fast validators with `new Function` where it may, and it asks
// whether it may when an object schema is built (not first used); the app's Content-Security-Policy
// forbids eval, so the browser logs a CSP violation (Lighthouse counts it against best practices). The
// app's forms and answers are small: the interpreted checks are fast enough.
//
// So the client build resolves every `import ... from 'zod'` to this module (vite.config.ts,
// resolve.alias): Zod is set to run without eval before any module that builds a schema runs, whichever
// screen loads Zod first. 'zod/v4' is the same Zod (one global config), not aliased. The server imports
// 'zod' itself and keeps the compiled validators. The service worker imports this module first too.
z.config({ jitless: true });

export * from 'zod/v4';
export { z, z as default };
