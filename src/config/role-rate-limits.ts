// BERTH_RATE_LIMIT_ROLES (`reader=600,scheduler=0`): requests per window per token, by role.
import { z } from 'zod';
import { isRole, ROLES, type Role } from '../auth/roles';

/** Parses BERTH_RATE_LIMIT_ROLES (`reader=600,scheduler=0`): the limit per role, or why not. */
function parseRoleRateLimits(v: string): Partial<Record<Role, number>> | string {
  const limits: Partial<Record<Role, number>> = {};
  for (const pair of v.split(',').map((p) => p.trim())) {
    if (pair === '') {
      continue;
    }
    const m = /^([^=\s]+)\s*=\s*(\d+)$/.exec(pair);
    if (!m) {
      return `'${pair}' is not role=number; write e.g. reader=600,scheduler=0`;
    }
    const role = m[1]!;
    const limit = Number(m[2]);
    if (!isRole(role)) {
      return `unknown role '${role}' (roles: ${ROLES.join(', ')})`;
    }
    if (role in limits) {
      return `role '${role}' is listed twice`;
    }
    if (!Number.isSafeInteger(limit)) {
      return `${m[2]} is too large a limit for role '${role}'`;
    }
    limits[role] = limit;
  }
  return limits;
}

/** BERTH_RATE_LIMIT_ROLES: requests per window per token, by role; 0 or absent = unlimited. */
export const roleRateLimits = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const limits = parseRoleRateLimits(v ?? '');
    if (typeof limits === 'string') {
      ctx.addIssue({ code: 'custom', message: limits, input: v });
      return z.NEVER;
    }
    return limits;
  });
