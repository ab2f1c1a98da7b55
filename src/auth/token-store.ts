// Persistence of API tokens (`api_tokens`): create, list, revoke, find. Used by the CLI and by
// the authenticator; never sees or stores a secret, only its hash.
import type { DataSource } from 'typeorm';
import { ApiToken } from '../db/entities/api-token';
import { auditedTransaction, noteAuditDetails } from '../placement/audit';
import { isRole, type Role } from './roles';
import { generateToken } from './token-format';

/** A token as listed (no secret, no hash). */
export interface TokenInfo {
  readonly id: string;
  readonly name: string;
  readonly role: Role;
  readonly project: string | null;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  readonly revokedAt: Date | null;
}

/** A token row as the authenticator needs it (includes the hash). */
export interface TokenRecord extends TokenInfo {
  readonly secretSha256: string;
}

/** The token's role is not one of admin, service, scheduler, reader, member. */
export class InvalidRoleError extends Error {}

function toRecord(row: ApiToken): TokenRecord {
  return {
    id: row.id,
    name: row.name,
    role: isRole(row.role) ? row.role : 'reader',
    project: row.project,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
    secretSha256: row.secretSha256,
  };
}

function toInfo(r: TokenRecord): TokenInfo {
  const { secretSha256: _hash, ...info } = r;
  return info;
}

/** CRUD over `api_tokens`. */
export class TokenStore {
  constructor(private readonly ds: DataSource) {}

  /**
   * Creates a token and returns its full text, which is not stored and cannot be shown again.
   * @throws InvalidRoleError for an unknown role, or an admin token scoped to a project.
   */
  async create(opts: {
    role: string;
    project?: string | null;
    name?: string;
  }): Promise<{ token: string; info: TokenInfo }> {
    if (!isRole(opts.role)) {
      throw new InvalidRoleError(
        `unknown role '${opts.role}': expected admin, service, scheduler, reader or member`,
      );
    }
    if (opts.role === 'member' && !opts.project) {
      throw new InvalidRoleError(
        "member tokens read one project's usages, quota and allocations: give the project (--project)",
      );
    }
    if ((opts.role === 'admin' || opts.role === 'service') && opts.project) {
      throw new InvalidRoleError(
        `${opts.role} tokens cannot be scoped to a project: ${opts.role} operations (providers, inventories, reshape${opts.role === 'admin' ? ', quota limits' : ''}) are cloud-wide; create a scheduler or reader token for the project`,
      );
    }
    const t = generateToken();
    const saved = await auditedTransaction(this.ds, (em) => {
      const repo = em.getRepository(ApiToken);
      const row = repo.create({
        id: t.id,
        name: (opts.name ?? '').slice(0, 255),
        role: opts.role,
        project: opts.project ? opts.project.slice(0, 255) : null,
        secretSha256: t.secretSha256,
        lastUsedAt: null,
        revokedAt: null,
      });
      // The id, never the secret (only its hash is stored, and not in the event either).
      noteAuditDetails({
        token: { id: row.id, name: row.name, role: row.role, project: row.project },
      });
      return repo.save(row);
    });
    return { token: t.token, info: toInfo(toRecord(saved)) };
  }

  /** Every token, oldest first (revoked ones included, marked). */
  async list(): Promise<TokenInfo[]> {
    const rows = await this.ds.getRepository(ApiToken).find({ order: { createdAt: 'ASC' } });
    return rows.map((r) => toInfo(toRecord(r)));
  }

  /** The token row with `id`, or null. */
  async findById(id: string): Promise<TokenRecord | null> {
    const row = await this.ds.getRepository(ApiToken).findOneBy({ id });
    return row ? toRecord(row) : null;
  }

  /** Marks a token revoked; false when there is no such token (or it was already revoked). */
  async revoke(id: string): Promise<boolean> {
    const revoked = await auditedTransaction(
      this.ds,
      async (em) => {
        const res = await em
          .getRepository(ApiToken)
          .createQueryBuilder()
          .update()
          .set({ revokedAt: () => 'now()' })
          .where('id = :id AND revoked_at IS NULL', { id })
          .returning(['id', 'name', 'role', 'project'])
          .execute();
        const row = (res.raw as { id: string; name: string; role: string; project: unknown }[])[0];
        if (row) {
          noteAuditDetails({ token: { ...row, revoked: true } });
        }
        return row !== undefined;
      },
      (r) => r,
    );
    return revoked;
  }

  /** Records a successful use (best effort, called at most once per cache period per token). */
  async touch(id: string): Promise<void> {
    await this.ds
      .getRepository(ApiToken)
      .update({ id }, { lastUsedAt: () => 'now()' } as unknown as Partial<ApiToken>);
  }
}
