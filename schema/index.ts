// Composes the GraphQL schema: imports every type file (for registration), then builds it.
import { builder } from './builder';
import './resource-class';
import './trait';
import './version';

/** The executable GraphQL schema. */
export const schema = builder.toSchema({ sortSchema: false });
