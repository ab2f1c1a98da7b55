// Ordered list of migrations (explicit, so compiled and ts-node runs see the same set).
import { InitialSchema1763800000000 } from './1763800000000-InitialSchema';
import { QuotaLimits1763900000000 } from './1763900000000-QuotaLimits';
import { ConsumerMoves1764000000000 } from './1764000000000-ConsumerMoves';
import { ApiTokens1764000000001 } from './1764000000001-ApiTokens';
import { NoScopedAdminTokens1764100000000 } from './1764100000000-NoScopedAdminTokens';
import { ServerGroups1764200000000 } from './1764200000000-ServerGroups';
import { OpenStackRoles1764300000000 } from './1764300000000-OpenStackRoles';
import { AuditEvents1764400000000 } from './1764400000000-AuditEvents';
import { ServerGroupMembersOfProject1764500000000 } from './1764500000000-ServerGroupMembersOfProject';
import { BuildFailures1764600000000 } from './1764600000000-BuildFailures';
import { CapacitySamples1764700000000 } from './1764700000000-CapacitySamples';
import { CommitMarkers1764800000000 } from './1764800000000-CommitMarkers';

/** Every migration class, oldest first. */
export const migrations = [
  InitialSchema1763800000000,
  QuotaLimits1763900000000,
  ConsumerMoves1764000000000,
  ApiTokens1764000000001,
  NoScopedAdminTokens1764100000000,
  ServerGroups1764200000000,
  OpenStackRoles1764300000000,
  AuditEvents1764400000000,
  ServerGroupMembersOfProject1764500000000,
  BuildFailures1764600000000,
  CapacitySamples1764700000000,
  CommitMarkers1764800000000,
];
