// Route matching: 404 for unknown paths, 405 with Allow (upstream: handler.py make_map).
import type { HttpError } from '../../../src/rest/http-error';
import { RouteTable } from '../../../src/rest/route-table';
import { ROUTES } from '../../../src/rest/routes';

const table = new RouteTable(ROUTES);

function errorOf(method: string, path: string): HttpError {
  try {
    table.matchOrThrow(method, path);
  } catch (err) {
    return err as HttpError;
  }
  throw new Error('matched');
}

describe('RouteTable', () => {
  it('binds and decodes path parameters', () => {
    expect(table.matchOrThrow('GET', '/resource_providers/abc/inventories/DISK_GB').params).toEqual(
      {
        uuid: 'abc',
        resource_class: 'DISK_GB',
      },
    );
    expect(table.matchOrThrow('GET', '/traits/CUSTOM%5FX').params).toEqual({ name: 'CUSTOM_X' });
  });

  it("serves the root at both '' and '/'", () => {
    expect(table.matchOrThrow('GET', '').handler).toBe(table.matchOrThrow('GET', '/').handler);
  });

  it('answers 404 for unknown paths and 405 with Allow for unknown methods', () => {
    expect(errorOf('GET', '/resource_providers/x/cows').status).toBe(404);
    const e = errorOf('DELETE', '/resource_providers');
    expect(e.status).toBe(405);
    expect(e.headers.allow).toBe('GET, POST');
  });
});
