// BERTH_KEYSTONE_* → the settings of BERTH_AUTH=keystone (docs/configuration.md "Keystone");
// src/config/config.ts calls it once and turns a problem into a ConfigError.
import type { KeystoneSettings } from './keystone';

/** The BERTH_KEYSTONE_* variables as src/config/config.ts parsed them. */
export interface KeystoneEnv {
  readonly BERTH_KEYSTONE_URL?: string;
  readonly BERTH_KEYSTONE_USERNAME?: string;
  readonly BERTH_KEYSTONE_PASSWORD?: string;
  readonly BERTH_KEYSTONE_PROJECT?: string;
  readonly BERTH_KEYSTONE_USER_DOMAIN: string;
  readonly BERTH_KEYSTONE_PROJECT_DOMAIN: string;
  readonly BERTH_KEYSTONE_CACHE_S: number;
  readonly BERTH_KEYSTONE_TIMEOUT_MS: number;
}

/** Keystone settings plus the verified-token cache period in milliseconds. */
export type KeystoneConfig = KeystoneSettings & { readonly cacheTtlMs: number };

/**
 * The Keystone settings when `mode` is keystone (undefined otherwise), or a message naming the
 * missing variables.
 */
export function keystoneConfig(e: KeystoneEnv, mode: string): KeystoneConfig | undefined | string {
  if (mode !== 'keystone') {
    return undefined;
  }
  const missing = (
    [
      'BERTH_KEYSTONE_URL',
      'BERTH_KEYSTONE_USERNAME',
      'BERTH_KEYSTONE_PASSWORD',
      'BERTH_KEYSTONE_PROJECT',
    ] as const
  ).filter((k) => !e[k]);
  if (missing.length > 0) {
    return `BERTH_AUTH=keystone needs ${missing.join(', ')} (berth's service user, as in keystonemiddleware's [keystone_authtoken])`;
  }
  return {
    url: e.BERTH_KEYSTONE_URL!,
    username: e.BERTH_KEYSTONE_USERNAME!,
    password: e.BERTH_KEYSTONE_PASSWORD!,
    project: e.BERTH_KEYSTONE_PROJECT!,
    userDomain: e.BERTH_KEYSTONE_USER_DOMAIN,
    projectDomain: e.BERTH_KEYSTONE_PROJECT_DOMAIN,
    timeoutMs: e.BERTH_KEYSTONE_TIMEOUT_MS,
    cacheTtlMs: e.BERTH_KEYSTONE_CACHE_S * 1000,
  };
}
