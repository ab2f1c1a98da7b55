// `berth token create|list|revoke`: manages API tokens. The secret is printed once, at creation;
// only its SHA-256 is stored.

import type { Command } from 'commander';
import { cliActor } from '../auth/audit-actor';
import { InvalidRoleError, type TokenInfo, TokenStore } from '../auth/token-store';
import { loadConfig } from '../config/config';
import { migrateDatabase } from '../db/migrate';
import { escapeForTerminal } from '../lib/text-table';
import { runAudited } from '../placement/audit';
import { type CliDatabase, openDatabase } from './database';
import { exitWithStartupError } from './errors';

async function withStore<T>(fn: (store: TokenStore) => Promise<T>): Promise<T> {
  let db: CliDatabase;
  try {
    db = await openDatabase(loadConfig());
    await migrateDatabase(db.dataSource);
  } catch (err) {
    exitWithStartupError(err);
  }
  try {
    return await fn(new TokenStore(db.dataSource));
  } finally {
    await db.close();
  }
}

function row(t: TokenInfo): string {
  const state = t.revokedAt ? `revoked ${t.revokedAt.toISOString()}` : 'active';
  const used = t.lastUsedAt ? t.lastUsedAt.toISOString() : 'never';
  return [t.id, t.role, t.project ?? '-', t.name || '-', t.createdAt.toISOString(), used, state]
    .map(escapeForTerminal)
    .join('\t');
}

/** Adds `token create`, `token list` and `token revoke` to `program`. */
export function registerTokenCommand(program: Command): void {
  const token = program
    .command('token')
    .description('manage API tokens: create, list, revoke')
    .addHelpText(
      'after',
      '\nThe token is sent as `Authorization: Bearer <token>` (GraphQL) or `X-Auth-Token` (REST);\n`berth demo` takes an admin one with --token or BERTH_TOKEN.',
    );
  token
    .command('create')
    .description('create a token and print it (shown once; only its hash is stored)')
    .requiredOption(
      '--role <role>',
      'admin | service | scheduler | reader | member (member needs --project)',
    )
    .option('--project <project>', 'scope allocation writes to this project')
    .option('--name <name>', 'a label, shown by `berth token list`')
    .action(async (opts: { role: string; project?: string; name?: string }) => {
      await withStore(async (store) => {
        try {
          const { token: text, info } = await runAudited(
            { actor: cliActor(), operation: 'cli token create' },
            () => store.create(opts),
          );
          process.stdout.write(`${text}\n`);
          process.stderr.write(
            `created token ${info.id} (role ${info.role}${info.project ? `, project ${escapeForTerminal(info.project)}` : ''}); store it now, it is not shown again\n`,
          );
        } catch (err) {
          if (err instanceof InvalidRoleError) {
            process.stderr.write(`berth: ${escapeForTerminal(err.message)}\n`);
            process.exitCode = 1;
            return;
          }
          throw err;
        }
      });
    });
  token
    .command('list')
    .description('list tokens (id, role, project, name, created, last used, state)')
    .action(async () => {
      await withStore(async (store) => {
        const all = await store.list();
        process.stdout.write(
          `${['id', 'role', 'project', 'name', 'created', 'last used', 'state'].join('\t')}\n`,
        );
        for (const t of all) {
          process.stdout.write(`${row(t)}\n`);
        }
      });
    });
  token
    .command('revoke <id>')
    .description('revoke a token (takes effect within BERTH_AUTH_CACHE_TTL_MS on every server)')
    .action(async (id: string) => {
      await withStore(async (store) => {
        const bare = id.startsWith('berth_') ? (id.split('_')[1] ?? id) : id;
        const revoked = await runAudited({ actor: cliActor(), operation: 'cli token revoke' }, () =>
          store.revoke(bare),
        );
        if (revoked) {
          process.stdout.write(`revoked ${escapeForTerminal(bare)}\n`);
        } else {
          process.stderr.write(`berth: no active token with id ${escapeForTerminal(bare)}\n`);
          process.exitCode = 1;
        }
      });
    });
}
