// Patterns shared by the request schemas (upstream: placement/schemas/common.py).

import { NUMBERED_GROUP_SUFFIX, STRING_GROUP_SUFFIX } from '../../placement/query-syntax';
/** A resource provider / consumer / aggregate uuid key (loose: 36 hex digits or dashes). */
export const UUID_PATTERN = '^[0-9a-fA-F-]{36}$';
/** A resource class or trait name. */
export const RC_PATTERN = '^[A-Z0-9_]+$';
/** A custom resource class name. */
export const CUSTOM_RC_PATTERN = '^CUSTOM_[A-Z0-9_]+$';
/** A custom trait name. */
export const CUSTOM_TRAIT_PATTERN = '^CUSTOM_[A-Z0-9_]+$';
/** A consumer type name. */
export const CONSUMER_TYPE_PATTERN = RC_PATTERN;
/** A consumer type as GET /usages accepts it. */
export const CONSUMER_TYPE_GET_PATTERN = `${CONSUMER_TYPE_PATTERN}|^all|^unknown$`;
/** Request group suffix before 1.33 (numbers). */
export const GROUP_PAT = NUMBERED_GROUP_SUFFIX;
/** Request group suffix from 1.33 on. */
export const GROUP_PAT_1_33 = STRING_GROUP_SUFFIX;
/** Largest 32-bit column value (placement.db.constants.MAX_INT). */
export const MAX_INT = 2147483647;
/** Largest single-precision float (placement.db.constants.SQL_SP_FLOAT_MAX). */
export const SQL_SP_FLOAT_MAX = 3.40282e38;
