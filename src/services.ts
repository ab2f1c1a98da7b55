// Composition of the domain services over one DataSource (what adapters receive).
import type { DataSource } from 'typeorm';
import { ResourceClassService } from './placement/resource-class';
import { TraitService } from './placement/trait';

/** Every domain service, sharing one DataSource. */
export interface Services {
  readonly dataSource: DataSource;
  readonly resourceClasses: ResourceClassService;
  readonly traits: TraitService;
}

/** Builds the services over `ds`. */
export function createServices(ds: DataSource): Services {
  return {
    dataSource: ds,
    resourceClasses: new ResourceClassService(ds),
    traits: new TraitService(ds),
  };
}
