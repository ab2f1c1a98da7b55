// The route table of Placement 1.39: path templates -> method -> handler, in upstream's
// declaration order (upstream: placement/handler.py ROUTE_DECLARATIONS).
import { getAggregates, setAggregates } from './handlers/aggregate';
import { listAllocationCandidates } from './handlers/allocation-candidate';
import { listForConsumer, listForResourceProvider } from './handlers/allocation-read';
import {
  deleteAllocations,
  setAllocations,
  setAllocationsForConsumer,
} from './handlers/allocation-write';
import {
  createInventory,
  deleteInventories,
  deleteInventory,
  getInventories,
  getInventory,
  setInventories,
  updateInventory,
} from './handlers/inventory';
import { reshape } from './handlers/reshaper';
import {
  createResourceClass,
  deleteResourceClass,
  getResourceClass,
  listResourceClasses,
  updateResourceClass,
} from './handlers/resource-class';
import {
  createResourceProvider,
  deleteResourceProvider,
  getResourceProvider,
  listResourceProviders,
  updateResourceProvider,
} from './handlers/resource-provider';
import { home } from './handlers/root';
import {
  deleteTrait,
  deleteTraitsForResourceProvider,
  getTrait,
  listTraits,
  listTraitsForResourceProvider,
  putTrait,
  updateTraitsForResourceProvider,
} from './handlers/trait';
import { getTotalUsages, listUsages } from './handlers/usage';
import type { RouteDeclaration } from './route-table';

/** Every route of the facade. */
export const ROUTES: readonly RouteDeclaration[] = [
  { path: '/', methods: { GET: home } },
  { path: '/resource_classes', methods: { GET: listResourceClasses, POST: createResourceClass } },
  {
    path: '/resource_classes/{name}',
    methods: { GET: getResourceClass, PUT: updateResourceClass, DELETE: deleteResourceClass },
  },
  {
    path: '/resource_providers',
    methods: { GET: listResourceProviders, POST: createResourceProvider },
  },
  {
    path: '/resource_providers/{uuid}',
    methods: {
      GET: getResourceProvider,
      DELETE: deleteResourceProvider,
      PUT: updateResourceProvider,
    },
  },
  {
    path: '/resource_providers/{uuid}/inventories',
    methods: {
      GET: getInventories,
      POST: createInventory,
      PUT: setInventories,
      DELETE: deleteInventories,
    },
  },
  {
    path: '/resource_providers/{uuid}/inventories/{resource_class}',
    methods: { GET: getInventory, PUT: updateInventory, DELETE: deleteInventory },
  },
  { path: '/resource_providers/{uuid}/usages', methods: { GET: listUsages } },
  {
    path: '/resource_providers/{uuid}/aggregates',
    methods: { GET: getAggregates, PUT: setAggregates },
  },
  { path: '/resource_providers/{uuid}/allocations', methods: { GET: listForResourceProvider } },
  { path: '/allocations', methods: { POST: setAllocations } },
  {
    path: '/allocations/{consumer_uuid}',
    methods: {
      GET: listForConsumer,
      PUT: setAllocationsForConsumer,
      DELETE: deleteAllocations,
    },
  },
  { path: '/allocation_candidates', methods: { GET: listAllocationCandidates } },
  { path: '/traits', methods: { GET: listTraits } },
  { path: '/traits/{name}', methods: { GET: getTrait, PUT: putTrait, DELETE: deleteTrait } },
  {
    path: '/resource_providers/{uuid}/traits',
    methods: {
      GET: listTraitsForResourceProvider,
      PUT: updateTraitsForResourceProvider,
      DELETE: deleteTraitsForResourceProvider,
    },
  },
  { path: '/usages', methods: { GET: getTotalUsages } },
  { path: '/reshaper', methods: { POST: reshape } },
];
