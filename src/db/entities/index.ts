// The list of TypeORM entities (composition only: registers, does not re-export).
import { PlacementAggregate } from './aggregate';
import { Allocation } from './allocation';
import { ApiToken } from './api-token';
import { Consumer } from './consumer';
import { ConsumerMove } from './consumer-move';
import { ConsumerType } from './consumer-type';
import { Inventory } from './inventory';
import { AggregateMetadata, ResourceProviderAggregate, ResourceProviderTrait } from './links';
import { Project } from './project';
import { QuotaLimit } from './quota-limit';
import { ResourceClass } from './resource-class';
import { ResourceProvider } from './resource-provider';
import { ServerGroup, ServerGroupMember } from './server-group';
import { Trait } from './trait';
import { User } from './user';

/** Every entity class, for the DataSource. */
export const entities = [
  PlacementAggregate,
  AggregateMetadata,
  Allocation,
  ApiToken,
  Consumer,
  ConsumerMove,
  ConsumerType,
  Inventory,
  Project,
  QuotaLimit,
  ResourceClass,
  ResourceProvider,
  ResourceProviderAggregate,
  ResourceProviderTrait,
  ServerGroup,
  ServerGroupMember,
  Trait,
  User,
];
