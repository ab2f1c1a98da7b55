// The bounded labels of /metrics: route templates, method, status class, GraphQL operation names;
// and when the OTEL_* variables turn tracing on.
import { mayAddLabel, OperationNames } from '../../../src/observability/graphql-metrics';
import { methodLabel, routeNamer, statusLabel } from '../../../src/observability/http-route';
import { tracingRequested } from '../../../src/observability/tracing';
import { ROUTES } from '../../../src/rest/routes';

describe('routeNamer', () => {
  const naming = {
    exact: ['/healthz', '/metrics', '/graphql'],
    prefixes: ['/graphql', '/ui', '/graphiql/assets/'],
    restTemplates: ROUTES.map((r) => r.path),
  };
  const atRoot = routeNamer({ ...naming, restPrefix: '' });
  const mounted = routeNamer({ ...naming, restPrefix: '/placement' });
  const uuid = '0b1a5cc4-3f57-4bb6-9d3e-0ad6c2b8f2a1';

  it.each([
    ['/healthz', '/healthz'],
    ['/graphql', '/graphql'],
    ['/graphql/stream', '/graphql/*'],
    ['/ui/providers/x', '/ui/*'],
    ['/graphiql/assets/app.js', '/graphiql/assets/*'],
    ['/', '/'],
    [`/resource_providers/${uuid}`, '/resource_providers/{uuid}'],
    [
      `/resource_providers/${uuid}/inventories/VCPU`,
      '/resource_providers/{uuid}/inventories/{resource_class}',
    ],
    ['/traits/CUSTOM_GOLD', '/traits/{name}'],
    ['/no/such/route', 'other'],
    ['/resource_providers/', 'other'],
  ])('at /: %s is %s', (path, route) => {
    expect(atRoot(path)).toBe(route);
  });

  it.each([
    [`/placement/resource_providers/${uuid}`, '/placement/resource_providers/{uuid}'],
    ['/placement', '/placement/'],
    [`/resource_providers/${uuid}`, 'other'],
  ])('under /placement: %s is %s', (path, route) => {
    expect(mounted(path)).toBe(route);
  });
});

describe('methodLabel and statusLabel', () => {
  it('keeps HTTP methods and collapses the rest', () => {
    expect(['GET', 'PUT', 'BREW', undefined].map(methodLabel)).toEqual([
      'GET',
      'PUT',
      'other',
      'other',
    ]);
  });
  it('names the status class', () => {
    expect([200, 204, 301, 404, 503, 42].map(statusLabel)).toEqual([
      '2xx',
      '2xx',
      '3xx',
      '4xx',
      '5xx',
      'other',
    ]);
  });
});

describe('OperationNames', () => {
  it('keeps the first names trusted callers use, then says other; unnamed is anonymous', () => {
    const names = new OperationNames(3);
    expect(
      ['A', 'B', 'A', 'C', 'D', 'B', '', undefined, 'x'.repeat(65)].map((n) =>
        names.label(n, true),
      ),
    ).toEqual(['A', 'B', 'A', 'C', 'other', 'B', 'anonymous', 'anonymous', 'other']);
  });

  it('lets untrusted callers reuse labels but never add one', () => {
    const names = new OperationNames(3, ['Dashboard']);
    expect(['Random1', 'Random2', 'Random3', 'Random4'].map((n) => names.label(n, false))).toEqual([
      'other',
      'other',
      'other',
      'other',
    ]);
    expect(names.label('Place', true)).toBe('Place');
    expect(['Place', 'Dashboard', 'Random5'].map((n) => names.label(n, false))).toEqual([
      'Place',
      'Dashboard',
      'other',
    ]);
    // Configured names do not use up the slots of trusted callers.
    expect(['A', 'B', 'C'].map((n) => names.label(n, true))).toEqual(['A', 'B', 'other']);
  });

  it.each([
    [null, true],
    [{ role: 'admin' }, true],
    [{ role: 'service' }, true],
    [{ role: 'scheduler' }, true],
    [{ role: 'reader' }, false],
    [{ role: 'member' }, false],
    [undefined, false],
  ])('caller %j may add a label: %s', (caller, may) => {
    expect(mayAddLabel(caller)).toBe(may);
  });
});

describe('tracingRequested', () => {
  it.each([
    [{}, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }, true],
    [{ OTEL_TRACES_EXPORTER: 'console' }, true],
    [{ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }, false],
    [{ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' }, false],
  ])('%j: %s', (env, on) => {
    expect(tracingRequested(env as NodeJS.ProcessEnv)).toBe(on);
  });
});
