// Composes the GraphQL schema: imports every type file (for registration), then builds it.
import { assertAccessDeclared } from './access';
import { builder } from './builder';
import './audit';
import './aggregate';
import './allocation-candidate';
import './allocation';
import './build-result';
import './candidate-stage';
import './capacity';
import './capacity-history';
import './consumer';
import './drain-plan';
import './headroom';
import './inventory';
import './legacy-import';
import './host-listing';
import './listings';
import './move';
import './placement-import';
import './quota';
import './reshaper';
import './safe-int';
import './resource-amount';
import './resource-class';
import './resource-provider';
import './resource-provider-connection';
import './schedule';
import './scheduler-profiles';
import './server-group';
import './simulation';
import './subscription';
import './trait';
import './usage';
import './version';

/**
 * The executable GraphQL schema (every mutation audited: schema/audit-plugin.ts; every object type with
 * its access rule: schema/access.ts).
 */
export const schema = assertAccessDeclared(builder.toSchema({ sortSchema: false }));
