// The error of a setting that stops the server from starting: its message names every bad variable.
// Its own file, so the config parts (config-billing.ts and the others) and config.ts, which gathers them,
// import it without importing each other.
export class ConfigError extends Error {}
