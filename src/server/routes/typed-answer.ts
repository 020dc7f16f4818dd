/**
 * Route options for an answer built field by field from typed rows (toWire, loadProfile, pullChanges):
 * sent with JSON.stringify, not re-checked against the response schema. Re-checking ran every field of
 * every record through the input rules again (text checks, a date parse per appointment) and was the
 * largest cost of a read after the queries (tests/bench/server.ts; a fifth of a first pull in
 * tests/bench/pull-chromium). The schema still documents the route in OpenAPI and types the handler,
 * so a handler that answers anything else does not compile. Error answers are built the same way.
 */
export const typedAnswer = { serializerCompiler: () => (data: unknown) => JSON.stringify(data) };
