// Keeps the commands of README.md and docs/*.md true: every `npm run <script>` names a script of
// package.json; every `berth …` (also `npx berth …`, `npm run berth -- …`, `node bin/berth.js …`)
// names subcommands and options the CLI defines (the commander program of src/cli/main.ts itself,
// not its help text); every BERTH_* variable is one the code reads; every relative link reaches
// a file, and its #anchor a heading of that file. A failure lists `file:line: what is wrong`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { type Code, pages, repo, scan } from '../../support/doc-pages';
import { linkProblems, slug } from './links';

const scanned = pages.map(scan);
const codes = scanned.flatMap((s) => s.code);
const at = (c: Code) => `${c.page}:${c.line}`;

// ---------------------------------------------------------------- npm scripts

const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};

/** `npm run <script>`, `npm start`, `npm test` in the code of the pages, and their problems. */
function npmProblems(): string[] {
  const problems: string[] = [];
  for (const c of codes) {
    for (const m of c.text.matchAll(
      /\bnpm\s+(?:run(?:-script)?\s+(?:(?:-s|--silent)\s+)?([\w:.-]+)|(start|test)\b)/g,
    )) {
      const script = m[1] ?? m[2]!;
      if (!(script in pkg.scripts)) {
        problems.push(`${at(c)}: npm script "${script}" is not in package.json (in: ${c.text})`);
      }
    }
  }
  return problems;
}

// ---------------------------------------------------------------- the berth CLI

/** The program src/cli/main.ts builds, caught before it parses anything. */
function loadProgram(): Command {
  let program: Command | undefined;
  const parse = jest.spyOn(Command.prototype, 'parseAsync').mockImplementation(function (
    this: Command,
  ) {
    program = this;
    return Promise.resolve(this);
  });
  try {
    require('../../../src/cli/main');
  } finally {
    parse.mockRestore();
  }
  if (!program) {
    throw new Error('src/cli/main.ts did not call program.parseAsync');
  }
  return program;
}

/** Placeholders stand for anything: `<URL>`, `…`, `...`, `N`-style words are arguments. */
const WILDCARD = /^(?:<>|…|\.\.\.)$/;

/** Whether `cmd` (or commander's built-ins) defines the option `flag` (`--x`, `-x`). */
function findOption(cmd: Command, flag: string) {
  return cmd.options.find((o) => o.long === flag || o.short === flag);
}

/** What is wrong with `berth <args>` (undefined: nothing; args as shown on the page). */
function cliProblem(program: Command, args: string[]): string | undefined {
  let cmd = program;
  let path = 'berth';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (WILDCARD.test(arg)) {
      if (cmd.commands.length > 0) {
        return undefined; // `berth <command>`, `berth token …`: any subcommand
      }
      continue;
    }
    if (arg.startsWith('-')) {
      if (arg === '--') {
        return undefined;
      }
      const flag = arg.split('=')[0]!;
      if (
        ['--help', '-h'].includes(flag) ||
        (cmd === program && ['--version', '-V'].includes(flag))
      ) {
        continue;
      }
      const option = findOption(cmd, flag);
      if (!option) {
        const known = cmd.options.map((o) => o.long ?? o.short).join(', ') || 'none';
        return `\`${path}\` has no option ${flag} (its options: ${known})`;
      }
      if ((option.required || option.optional) && !arg.includes('=')) {
        i++; // its value
      }
      continue;
    }
    const subs = cmd.commands;
    if (subs.length === 0) {
      continue; // an argument
    }
    const sub = subs.find((s) => s.name() === arg || s.aliases().includes(arg));
    if (!sub) {
      if (cmd === program && !/^[a-z][a-z-]*$/.test(arg)) {
        return undefined; // program output such as `berth 0.1.0 (…)`, not a command
      }
      return `\`${path}\` has no subcommand "${arg}" (its subcommands: ${subs.map((s) => s.name()).join(', ')})`;
    }
    cmd = sub;
    path += ` ${arg}`;
  }
  if (cmd.commands.length > 0 && cmd !== program) {
    return `\`${path}\` needs a subcommand (${cmd.commands.map((s) => s.name()).join(', ')})`;
  }
  return undefined;
}

/** The berth invocations of one line of code: each as its argument list. */
function berthInvocations(text: string): string[][] {
  const found: string[][] = [];
  const line = text
    .replace(/<[^<>]*>/g, '<>') // placeholders: <URL>, <postgresql://… | mysql://…>
    .replace(/(^|\s)#(?!!).*$/, '') // a trailing shell comment
    .replace(/^\s*\$\s+/, ''); // a prompt
  for (let segment of line.split(/&&|\|\||;|\s\|\s|\$\(|`|\(/)) {
    segment = segment.trim();
    // Leading VAR=value assignments, then a launcher.
    segment = segment.replace(/^(?:[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"[^"]*"|\S)*\s+)*/, '');
    const m =
      /^(?:npx\s+(?:--no-install\s+)?berth|npm\s+run\s+(?:-s\s+)?berth\s+--|node\s+(?:\S*\/)?bin\/berth\.js|berth)\s+(.*)$/.exec(
        segment,
      );
    if (!m) {
      continue;
    }
    const args = m[1]!
      .replace(/[[\]]/g, ' ') // [--dry-run] [--batch N]
      .split(/\s+/)
      .filter((a) => a !== '' && a !== '\\' && a !== '|');
    found.push(args);
  }
  return found;
}

function cliProblems(program: Command): string[] {
  const problems: string[] = [];
  for (const c of codes) {
    for (const args of berthInvocations(c.text)) {
      const problem = cliProblem(program, args);
      if (problem) {
        problems.push(`${at(c)}: ${problem} (in: ${c.text.trim()})`);
      }
    }
  }
  return problems;
}

// ---------------------------------------------------------------- BERTH_* variables

/** Every BERTH_* name in the code (src, bin, bench, filters, test, console, CI, package.json). */
function namesInCode(): Set<string> {
  const names = new Set<string>();
  const skip = new Set(['node_modules', 'dist', '.git', 'docs']);
  const self = resolve(__dirname);
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (skip.has(entry) || path === self) {
        continue;
      }
      if (statSync(path).isDirectory()) {
        walk(path);
      } else if (/\.(?:[cm]?[jt]sx?|sh|py|json)$/.test(entry) || dir.endsWith('.ci')) {
        for (const m of readFileSync(path, 'utf8').matchAll(/BERTH_[A-Z0-9_]+/g)) {
          names.add(m[0]);
        }
      }
    }
  };
  for (const dir of ['src', 'bin', 'bench', 'filters', 'test', 'console', '.ci', 'deploy']) {
    walk(join(repo, dir));
  }
  for (const m of readFileSync(join(repo, 'package.json'), 'utf8').matchAll(/BERTH_[A-Z0-9_]+/g)) {
    names.add(m[0]);
  }
  return names;
}

function variableProblems(lines: readonly Code[], known: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  for (const l of lines) {
    for (const m of l.text.matchAll(/\bBERTH_[A-Z0-9_]*[A-Z0-9](_?\*)?/g)) {
      const name = m[0];
      const ok = name.endsWith('*')
        ? [...known].some((k) => k.startsWith(name.replace(/_?\*$/, '')))
        : known.has(name);
      if (!ok) {
        problems.push(`${at(l)}: ${name} is not read anywhere in the code`);
      }
    }
  }
  return problems;
}

// ---------------------------------------------------------------- the tests

describe('the commands and links of README.md and docs/*.md', () => {
  it('reads the pages', () => {
    expect(pages).toContain('README.md');
    expect(pages.length).toBeGreaterThan(10);
    expect(codes.length).toBeGreaterThan(100);
  });

  it('names only npm scripts that package.json defines', () => {
    expect(npmProblems()).toEqual([]);
  });

  it('names only berth subcommands and options that the CLI defines', () => {
    const program = loadProgram();
    expect(program.commands.map((c) => c.name())).toContain('serve');
    expect(cliProblems(program)).toEqual([]);
  });

  it('names only BERTH_* variables that the code reads', () => {
    expect(
      variableProblems(
        scanned.flatMap((p) => p.all),
        namesInCode(),
      ),
    ).toEqual([]);
  });

  it('links only to files and headings that exist', () => {
    expect(
      linkProblems(
        repo,
        scanned.flatMap((p) => p.prose),
      ),
    ).toEqual([]);
  });
});

describe('the checker itself', () => {
  const program = new Command('berth');
  const imp = program.command('import');
  imp.command('placement').requiredOption('--from <url>').option('--dry-run');
  program.command('serve').option('--workers <n>');

  it.each([
    ['npx berth serve --workers 2', undefined],
    ['DATABASE_URL=postgres://…/db berth import placement --from <URL> [--dry-run]', undefined],
    ['npm run berth -- serve --threads 2', '`berth serve` has no option --threads'],
    ['berth import placment --from x', '`berth import` has no subcommand "placment"'],
    ['$ berth check; echo "exit $?"', '`berth` has no subcommand "check"'],
    ['berth import', '`berth import` needs a subcommand'],
  ])('%s', (text, problem) => {
    const found = berthInvocations(text).map((args) => cliProblem(program, args));
    expect(found).toHaveLength(1);
    if (problem === undefined) {
      expect(found[0]).toBeUndefined();
    } else {
      expect(found[0]).toContain(problem);
    }
  });

  it('ignores text that is not an invocation', () => {
    expect(berthInvocations("berth's index")).toEqual([]);
    expect(berthInvocations('berth_<id>_<secret>')).toEqual([]);
    expect(cliProblem(program, ['0.1.0', '(Placement'])).toBeUndefined();
  });

  it('finds a variable the code does not read, and accepts a prefix that it does', () => {
    const lines = [
      { page: 'README.md', line: 3, text: 'set `BERTH_WORKRES=2` or BERTH_CANDIDATE_MAX_*' },
    ];
    expect(
      variableProblems(lines, new Set(['BERTH_WORKERS', 'BERTH_CANDIDATE_MAX_RESULTS'])),
    ).toEqual(['README.md:3: BERTH_WORKRES is not read anywhere in the code']);
  });

  it('finds a missing file and a missing heading', () => {
    const prose = [
      {
        page: 'docs/api.md',
        line: 7,
        text: 'see [a](security.md#roles), [b](nowhere.md), [c](cli.md#no-such-heading), [d](https://x)',
      },
    ];
    expect(linkProblems(repo, prose)).toEqual([
      'docs/api.md:7: link to nowhere.md: docs/nowhere.md does not exist',
      'docs/api.md:7: link to cli.md#no-such-heading: docs/cli.md has no heading #no-such-heading',
    ]);
  });

  it('makes anchors as GitHub does', () => {
    expect(slug('3. `berth import placement`: what the source must pass')).toBe(
      '3-berth-import-placement-what-the-source-must-pass',
    );
    expect(slug('The edge, rate limits and armour')).toBe('the-edge-rate-limits-and-armour');
  });
});
