// The one error configuration loading throws (config.ts and its parts).

/** A configuration variable is invalid; the message names it. */
export class ConfigError extends Error {}
