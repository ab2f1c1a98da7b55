// SimpleCIDRAffinityFilter: with the hint `build_near_host_ip`, a host passes when its IP is in the
// network of that address and the hint `cidr` (default `/24`) (upstream:
// nova/scheduler/filters/affinity_filter.py SimpleCIDRAffinityFilter). Nova reads the host's IP from
// the compute node (`HostState.host_ip`); Placement holds none, so berth reads it from the root
// provider's trait CUSTOM_HOST_IP_<address, `.` and `:` written `_`> (CUSTOM_HOST_IP_10_8_1_1;
// filters/host-state/ip.ts). A host without one fails (Nova cannot compare a missing IP either).
// `cidr` is `/<prefix length>` or, for IPv4, `/<netmask>`, as netaddr reads it.
import { configKeys, pluginConfig } from '../../src/scheduler/helpers';
import type { FilterFactory } from '../../src/scheduler/plugin-api';
import {
  HOST_IP_TRAIT_PREFIX,
  type IpNetwork,
  inNetwork,
  parseNetwork,
  readHostIp,
} from '../host-state/ip';

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'SimpleCIDRAffinityFilter';
/** Plugin kind. */
export const kind = 'filter';
const CONFIG = pluginConfig({});
/** The configuration schema: empty (any key stops start-up). */
export const configSchema = () => CONFIG;
/** Takes no configuration: any key given for it stops start-up. */
export const CONFIG_KEYS = configKeys(CONFIG);

/** The hint naming the address to build near. */
export const HOST_IP_HINT = 'build_near_host_ip';
/** The hint giving the network's size. */
export const CIDR_HINT = 'cidr';
/** Nova's default `cidr`. */
export const DEFAULT_CIDR = '/24';

/** Rejection: the host's IP is outside the network asked for. */
export const REASON_OUTSIDE = 'host IP outside the network asked for';
/** Rejection: the host has no (readable) IP trait. */
export const REASON_NO_HOST_IP = 'host IP unknown';
/** Rejection: the hints do not name a network. */
export const REASON_INVALID_HINT = 'invalid build_near_host_ip / cidr hint';
/** Reason code of {@link REASON_OUTSIDE}. */
export const CODE_OUTSIDE = 'cidr_affinity.outside';
/** Reason code of {@link REASON_NO_HOST_IP}. */
export const CODE_NO_HOST_IP = 'cidr_affinity.no_host_ip';
/** Reason code of {@link REASON_INVALID_HINT}. */
export const CODE_INVALID_HINT = 'cidr_affinity.invalid_hint';

type State =
  | { readonly network: IpNetwork; readonly text: string }
  | { readonly error: string }
  | null;

/** A hint's single value (Nova `get_scheduler_hint`); `undefined` when absent, an error for several. */
function hintValue(hints: Readonly<Record<string, readonly string[]>>, name: string) {
  const values = hints[name];
  if (values === undefined) {
    return undefined;
  }
  return values.length === 1
    ? values[0]!
    : { error: `hint ${name} needs one value, got ${values.length}` };
}

/** Creates the filter; it takes no configuration. */
export const create: FilterFactory<State> = () => ({
  name: NAME,
  kind,
  onError: 'closed',
  prepare(req): State {
    const address = hintValue(req.hints, HOST_IP_HINT);
    if (address === undefined || address === '') {
      return null;
    }
    const cidr = hintValue(req.hints, CIDR_HINT) ?? DEFAULT_CIDR;
    if (typeof address !== 'string') {
      return address;
    }
    if (typeof cidr !== 'string') {
      return cidr;
    }
    const network = parseNetwork(address, cidr);
    return typeof network === 'string' ? { error: network } : { network, text: address + cidr };
  },
  filter(host, _req, state) {
    if (state === null) {
      return { fits: true };
    }
    if ('error' in state) {
      return {
        fits: false,
        reason: `${REASON_INVALID_HINT}: ${state.error}`,
        code: CODE_INVALID_HINT,
      };
    }
    const ip = readHostIp(host);
    if (ip.kind === 'none') {
      return {
        fits: false,
        reason: `${REASON_NO_HOST_IP}: no root trait ${HOST_IP_TRAIT_PREFIX}<address>`,
        code: CODE_NO_HOST_IP,
      };
    }
    if (ip.kind === 'invalid') {
      return { fits: false, reason: `${REASON_NO_HOST_IP}: ${ip.problem}`, code: CODE_NO_HOST_IP };
    }
    if (inNetwork(ip.ip, state.network)) {
      return { fits: true };
    }
    return {
      fits: false,
      reason: `${REASON_OUTSIDE}: ${ip.text}, not in ${state.text}`,
      code: CODE_OUTSIDE,
    };
  },
});
