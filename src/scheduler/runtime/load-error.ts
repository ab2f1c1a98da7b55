// Where a plugin module failed to load: `file:line` (and column when known) from the error Node
// raised, so an operator goes straight to the line. A syntax error's stack starts with the
// location and the offending source line; an error thrown while the module ran names the file in
// one of its frames.

/** `path:line[:column]` of the failure inside `file`, or `file` when the error does not say. */
export function loadErrorLocation(err: unknown, file: string): string {
  const stack = err instanceof Error ? (err.stack ?? '') : '';
  const first = stack.split('\n', 1)[0] ?? '';
  if (first.startsWith(`${file}:`) && /^\d+$/.test(first.slice(file.length + 1))) {
    return first;
  }
  for (const line of stack.split('\n')) {
    const at = line.lastIndexOf(`${file}:`);
    if (at >= 0) {
      const m = /^:(\d+)(?::(\d+))?/.exec(line.slice(at + file.length));
      if (m) {
        return `${file}:${m[1]}${m[2] ? `:${m[2]}` : ''}`;
      }
    }
  }
  return file;
}

/** The source line a syntax error points at (Node prints it under the location), if any. */
export function loadErrorSource(err: unknown, file: string): string | undefined {
  const lines = err instanceof Error ? (err.stack ?? '').split('\n') : [];
  return lines[0]?.startsWith(`${file}:`) ? lines[1]?.trim() || undefined : undefined;
}
