// The pages a reader reads (README.md and every docs/*.md) and what they show: prose lines, code
// (fenced lines and inline spans) and the shell commands of their sh/bash blocks. Read by the
// docs tests (test/unit/docs/commands.test.ts, test/api/docs-commands.test.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const repo = resolve(__dirname, '../..');

/** A piece of a page: a prose line, a line of a fenced block, or an inline code span. */
export interface Code {
  readonly page: string;
  readonly line: number;
  readonly text: string;
}

/** The pages: README.md and every docs/*.md. */
export const pages = [
  'README.md',
  ...readdirSync(join(repo, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

/** A page read: prose lines (outside fences), code (fenced lines and inline spans), all lines,
 * and the commands of its ```sh / ```bash blocks (continuation lines joined). */
export interface ScannedPage {
  readonly prose: Code[];
  readonly code: Code[];
  readonly all: Code[];
  readonly shell: Code[];
}

export function scan(page: string): ScannedPage {
  const lines = readFileSync(join(repo, page), 'utf8').split('\n');
  const prose: Code[] = [];
  const code: Code[] = [];
  const all: Code[] = [];
  const shell: Code[] = [];
  let fence: string | undefined;
  let isShell = false;
  let pending: Code | undefined;
  lines.forEach((text, i) => {
    const line = i + 1;
    all.push({ page, line, text });
    const f = /^\s*(`{3,}|~{3,})(\w*)/.exec(text);
    if (f) {
      if (fence === undefined) {
        fence = f[1];
        isShell = f[2] === 'sh' || f[2] === 'bash';
      } else if (text.trim().startsWith(fence)) {
        fence = undefined;
        pending = undefined;
      }
      return;
    }
    if (fence !== undefined) {
      code.push({ page, line, text });
      if (isShell) {
        const joined = pending ? `${pending.text} ${text.trim()}` : text.trim();
        const at = pending ?? { page, line, text };
        if (joined.endsWith('\\')) {
          pending = { ...at, text: joined.slice(0, -1).trimEnd() };
        } else {
          pending = undefined;
          if (joined && !joined.startsWith('#')) {
            shell.push({ ...at, text: joined });
          }
        }
      }
      return;
    }
    prose.push({ page, line, text });
    for (const m of text.matchAll(/(`+)(.+?)\1/g)) {
      code.push({ page, line, text: m[2]!.replaceAll('\\|', '|') });
    }
  });
  return { prose, code, all, shell };
}
