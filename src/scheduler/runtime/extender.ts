// HTTP scheduler extenders as plugins (Kubernetes scheduler extender protocol: ExtenderArgs ->
// ExtenderFilterResult / HostPriorityList, camelCased; pkg/scheduler/framework/extender.go).
// One POST per request for all hosts. A call that times out, answers non-2xx, answers more than
// `maxResponseBytes` (8 MiB; the call is aborted as soon as it does, so a streaming answer costs
// no memory beyond that), answers malformed JSON or reports `error` is a plugin failure:
// `ignorable: true` lets every host through
// (filter onError 'open'; a weigher's weight is dropped), `ignorable: false` fails closed (no host
// passes; `schedule` finds no valid host and says which extender failed and why).
import type {
  FilterPlugin,
  HostView,
  PluginModule,
  RequestSpec,
  Verdict,
  WeigherPlugin,
} from '../plugin-api';
import type { BatchFilter, BatchWeigher } from './batch';
import { type ExtenderConfig, extenderPluginNames } from './extender-config';
import type { RegisteredPlugin } from './registry';

/** The Kubernetes extender's highest score (`MaxExtenderPriority`). */
export const MAX_EXTENDER_SCORE = 10;

/** Reason code of a host the extender listed in `failedNodes` (its reason is the extender's text). */
export const CODE_EXTENDER_FAILED_NODE = 'extender.failed_node';
/** Reason code of a host the extender neither kept (`nodeNames`) nor listed in `failedNodes`. */
export const CODE_EXTENDER_NOT_KEPT = 'extender.not_kept';

/** How long after the budget a call still running is aborted. */
const ABORT_GRACE_MS = 20;

/** What an extender receives: the request and every host (allocation requests left out). */
export interface ExtenderArgs {
  readonly spec: RequestSpec;
  /** Host (root provider) names, in the order of `nodes`. */
  readonly nodeNames: readonly string[];
  readonly nodes: readonly Omit<HostView, 'allocationRequests'>[];
}

function body(hosts: readonly HostView[], spec: RequestSpec): string {
  const args: ExtenderArgs = {
    spec,
    nodeNames: hosts.map((h) => h.name),
    nodes: hosts.map(({ allocationRequests: _, ...rest }) => rest),
  };
  return JSON.stringify(args);
}

/** POSTs and returns the parsed JSON answer; throws a message naming the URL on any failure. */
async function post(
  e: ExtenderConfig,
  verb: string,
  payload: string,
  remainingMs: number,
): Promise<unknown> {
  const url = `${e.urlPrefix}/${verb}`;
  const timeoutMs = Math.max(1, Math.min(e.timeoutMs, remainingMs));
  // The pipeline's budget race answers first (cause `timeout`); the abort then frees the socket.
  const abortAfterMs = timeoutMs + ABORT_GRACE_MS;
  const overLimit = new AbortController();
  const signal = AbortSignal.any([AbortSignal.timeout(abortAfterMs), overLimit.signal]);
  const failure = (err: unknown, what: string) =>
    new Error(
      (err as Error).name === 'TimeoutError'
        ? `extender ${url} did not answer within ${timeoutMs} ms`
        : `extender ${url} ${what}: ${(err as Error).message}`,
    );
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...e.headers },
      body: payload,
      signal,
    });
  } catch (err) {
    throw failure(err, 'unreachable');
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new Error(`extender ${url} answered HTTP ${res.status}`);
  }
  let text: string;
  try {
    text = await boundedText(res, e.maxResponseBytes, overLimit);
  } catch (err) {
    if (err instanceof AnswerTooLargeError) {
      throw new Error(
        `extender ${url} answered more than ${e.maxResponseBytes} bytes (maxResponseBytes); the call was aborted`,
      );
    }
    throw failure(err, 'broke off its answer');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`extender ${url} answered malformed JSON`);
  }
}

/** The answer was larger than the extender's maxResponseBytes. */
class AnswerTooLargeError extends Error {}

/**
 * The body of `res` as UTF-8 text, read chunk by chunk: more than `maxBytes` (declared by
 * content-length, or as it arrives) aborts the request through `abort` and throws.
 * @throws AnswerTooLargeError
 */
async function boundedText(
  res: Response,
  maxBytes: number,
  abort: AbortController,
): Promise<string> {
  const tooLarge = () => {
    abort.abort();
    return new AnswerTooLargeError();
  };
  if (Number(res.headers.get('content-length') ?? 0) > maxBytes) {
    throw tooLarge();
  }
  const reader = res.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const next = await reader?.read();
    if (!next || next.done) {
      break;
    }
    size += next.value.byteLength;
    if (size > maxBytes) {
      throw tooLarge();
    }
    chunks.push(next.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Verdicts from a filter answer, in host order. @throws Error for a malformed answer. */
export function verdictsOrThrow(
  answer: unknown,
  hosts: readonly HostView[],
  where: string,
): Verdict[] {
  if (!isObject(answer)) {
    throw new Error(`${where}: the answer must be an object { nodeNames, failedNodes, error }`);
  }
  const { nodeNames, failedNodes, error } = answer;
  if (typeof error === 'string' && error !== '') {
    throw new Error(`${where} reported an error: ${error.slice(0, 300)}`);
  }
  if (!Array.isArray(nodeNames) || !nodeNames.every((n) => typeof n === 'string')) {
    throw new Error(`${where}: nodeNames must be a list of host names`);
  }
  const failed = failedNodes ?? {};
  if (!isObject(failed) || !Object.values(failed).every((r) => typeof r === 'string')) {
    throw new Error(`${where}: failedNodes must be an object { hostName: reason }`);
  }
  const passed = new Set(nodeNames as string[]);
  return hosts.map((h): Verdict => {
    const reason = (failed[h.name] ?? failed[h.uuid]) as string | undefined;
    if (reason !== undefined) {
      return { fits: false, reason, code: CODE_EXTENDER_FAILED_NODE };
    }
    return passed.has(h.name) || passed.has(h.uuid)
      ? { fits: true }
      : { fits: false, reason: `not among the hosts ${where} kept`, code: CODE_EXTENDER_NOT_KEPT };
  });
}

/** Scores (0..10, absent = 0) in host order from a prioritize answer. @throws Error if malformed. */
export function scoresOrThrow(
  answer: unknown,
  hosts: readonly HostView[],
  where: string,
): number[] {
  if (!Array.isArray(answer)) {
    throw new Error(`${where}: the answer must be a list [{ host, score }]`);
  }
  const scores = new Map<string, number>();
  for (const item of answer) {
    const score = isObject(item) ? item.score : undefined;
    if (
      !isObject(item) ||
      typeof item.host !== 'string' ||
      typeof score !== 'number' ||
      !(score >= 0 && score <= MAX_EXTENDER_SCORE)
    ) {
      throw new Error(`${where}: each item must be { host, score } with score 0..10`);
    }
    scores.set(item.host, score);
  }
  return hosts.map((h) => scores.get(h.name) ?? scores.get(h.uuid) ?? 0);
}

function filterPlugin(e: ExtenderConfig, name: string, verb: string): BatchFilter {
  const where = `extender ${name}`;
  const filterBatch = async (hosts: readonly HostView[], spec: RequestSpec, ms: number) =>
    verdictsOrThrow(await post(e, verb, body(hosts, spec), ms), hosts, where);
  return {
    name,
    kind: 'filter',
    onError: e.ignorable ? 'open' : 'closed',
    timeBudgetMs: e.timeoutMs,
    filter: async (host, spec) => (await filterBatch([host], spec, e.timeoutMs))[0]!,
    filterBatch,
  } satisfies FilterPlugin<unknown> & BatchFilter;
}

function weigherPlugin(e: ExtenderConfig, name: string, verb: string): BatchWeigher {
  const where = `extender ${name}`;
  const weighBatch = async (hosts: readonly HostView[], spec: RequestSpec, ms: number) =>
    scoresOrThrow(await post(e, verb, body(hosts, spec), ms), hosts, where);
  return {
    name,
    kind: 'weigher',
    // Fixed bounds: a score s weighs weight × s / 10 (the K8s score × weight, on berth's scale).
    multiplier: e.weight,
    minval: 0,
    maxval: MAX_EXTENDER_SCORE,
    timeBudgetMs: e.timeoutMs,
    weigh: async (host, spec) => (await weighBatch([host], spec, e.timeoutMs))[0]!,
    weighBatch,
  } satisfies WeigherPlugin<unknown> & BatchWeigher;
}

/** One registered plugin per extender verb (see `extenderPluginNames`). */
export function extenderPlugins(extenders: readonly ExtenderConfig[]): RegisteredPlugin[] {
  return extenders.flatMap((e) => {
    const names = extenderPluginNames(e);
    const source = `extender ${e.urlPrefix} (BERTH_SCHEDULER_EXTENDERS)`;
    const modules: PluginModule[] = [];
    if (names.filter !== undefined && e.filterVerb !== undefined) {
      const plugin = filterPlugin(e, names.filter, e.filterVerb);
      modules.push({ NAME: plugin.name, kind: 'filter', CONFIG_KEYS: [], create: () => plugin });
    }
    if (names.weigher !== undefined && e.prioritizeVerb !== undefined) {
      const plugin = weigherPlugin(e, names.weigher, e.prioritizeVerb);
      modules.push({ NAME: plugin.name, kind: 'weigher', CONFIG_KEYS: [], create: () => plugin });
    }
    return modules.map((module) => ({ module, source }));
  });
}
