// A readable, bounded message from anything thrown: plugins and stray promises can throw
// values that are not Errors, and those still have to be logged and shown as one line of text.
// (src/scheduler/runtime/worker-entry.cjs keeps a copy: it runs in worker threads without ts.)

/** Longest message kept (plugin errors are logged and shown in explanations). */
const MAX_MESSAGE = 500;

/**
 * A readable message from anything thrown or rejected with (a plugin's error, an unhandled
 * rejection). Never throws: circular objects, BigInt, symbols, throwing getters and Proxies all
 * come out as some text.
 */
export function errorMessage(err: unknown): string {
  let text: string;
  try {
    if (err instanceof Error) {
      text = String(err.message);
    } else if (typeof err === 'string') {
      text = err;
    } else if (typeof err === 'number') {
      text = String(err); // NaN, Infinity: JSON would say null
    } else {
      text =
        JSON.stringify(err, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ??
        String(err);
    }
  } catch {
    try {
      text = Object.prototype.toString.call(err);
    } catch {
      text = 'a value that cannot be printed';
    }
  }
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text;
}
