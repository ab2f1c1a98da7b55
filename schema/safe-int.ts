// GraphQL SafeInt: whole numbers beyond GraphQL's 32-bit Int. Capacities and usage sums exceed
// 2^31 - 1 on valid data (a total of 2147483647 with an allocation ratio of 10); the older Int
// fields stay for existing clients, saturated rather than failing the whole response.
import { GraphQLError, Kind } from 'graphql';
import { builder } from './builder';

/** The largest value a GraphQL Int can carry. */
export const INT32_MAX = 2_147_483_647;

/** `n` clamped to the 32-bit range, for Int fields whose exact value lives in a SafeInt field. */
export function saturatedInt(n: number): number {
  return Math.max(-INT32_MAX - 1, Math.min(INT32_MAX, n));
}

/** The deprecation reason of a saturated Int field whose exact value is `exact`. */
export function saturatedReason(exact: string): string {
  return `Saturates at ${INT32_MAX} (GraphQL Int is 32-bit); use ${exact}.`;
}

function safeInteger(v: unknown): number {
  const n = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) {
    throw new GraphQLError(
      `SafeInt cannot represent ${String(v)}: expected an integer within ±(2^53 - 1).`,
    );
  }
  return n;
}

builder.scalarType('SafeInt', {
  description:
    'A whole number within ±(2^53 - 1), sent as a JSON number: exact in JavaScript and in every JSON parser that reads doubles.',
  serialize: safeInteger,
  parseValue: safeInteger,
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.INT) {
      throw new GraphQLError('SafeInt literals are integers.');
    }
    return safeInteger(Number(ast.value));
  },
});
