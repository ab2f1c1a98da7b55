// The link half of test/unit/docs/commands.test.ts: every relative link of a page reaches a file,
// and its #anchor a heading (GitHub's slug) or an HTML id of that file.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import type { Code } from '../../support/doc-pages';

const at = (c: Code) => `${c.page}:${c.line}`;

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
export function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const anchorCache = new Map<string, Set<string>>();

/** The anchors of a markdown file: its headings' slugs (numbered when repeated) and HTML ids. */
function anchorsOf(file: string): Set<string> {
  let anchors = anchorCache.get(file);
  if (!anchors) {
    anchors = new Set();
    const seen = new Map<string, number>();
    let fenced = false;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (/^\s*(`{3,}|~{3,})/.test(line)) {
        fenced = !fenced;
        continue;
      }
      const h = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
      if (h) {
        const base = slug(h[1]!);
        const n = seen.get(base) ?? 0;
        seen.set(base, n + 1);
        anchors.add(n === 0 ? base : `${base}-${n}`);
      }
      for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) {
        anchors.add(m[1]!);
      }
    }
    anchorCache.set(file, anchors);
  }
  return anchors;
}

/** Relative links of `prose` (lines of pages under `repo`) to a missing file or heading. */
export function linkProblems(repo: string, prose: readonly Code[]): string[] {
  const problems: string[] = [];
  for (const l of prose) {
    const text = l.text.replace(/(`+).+?\1/g, '');
    for (const m of text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]!;
      if (/^[a-z][a-z+.-]*:/i.test(target)) {
        continue; // http:, https:, mailto:
      }
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const file = path === '' ? join(repo, l.page) : resolve(dirname(join(repo, l.page)), path);
      let exists = true;
      try {
        statSync(file);
      } catch {
        exists = false;
      }
      if (!exists) {
        problems.push(`${at(l)}: link to ${target}: ${relative(repo, file)} does not exist`);
        continue;
      }
      if (anchor && file.endsWith('.md') && !anchorsOf(file).has(anchor)) {
        problems.push(
          `${at(l)}: link to ${target}: ${relative(repo, file)} has no heading #${anchor}`,
        );
      }
    }
  }
  return problems;
}
