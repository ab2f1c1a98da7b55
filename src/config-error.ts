// The one error configuration loading throws (src/config.ts and its parts).

/** A configuration variable is invalid; the message names it. */
export class ConfigError extends Error {}
