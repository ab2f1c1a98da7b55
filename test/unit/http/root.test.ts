// Which requests for `/` go to the console: browsers (HTML preferred); with the REST facade at
// '/', never a Placement client (JSON, no Accept, or a microversion header).
import type { IncomingMessage } from 'node:http';
import { prefersHtml, redirectsToConsole } from '../../../src/http/root';

const req = (method: string, headers: Record<string, string>) =>
  ({ method, headers }) as unknown as IncomingMessage;
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('GET / redirect', () => {
  it.each([
    [BROWSER, true],
    ['text/html', true],
    ['text/html;q=0.5, application/json', false],
    ['application/json', false],
    ['*/*', false],
    [undefined, false],
    ['text/html;q=0', false],
  ])('Accept %s prefers HTML: %s', (accept, expected) => {
    expect(prefersHtml(accept)).toBe(expected);
  });

  it('redirects every GET and HEAD when the REST facade has a prefix', () => {
    expect(redirectsToConsole(req('GET', {}), '/placement')).toBe(true);
    expect(redirectsToConsole(req('HEAD', { accept: 'application/json' }), '/placement')).toBe(
      true,
    );
    expect(redirectsToConsole(req('POST', { accept: BROWSER }), '/placement')).toBe(false);
  });

  it('redirects only browsers without a microversion when Placement is at /', () => {
    expect(redirectsToConsole(req('GET', { accept: BROWSER }), '')).toBe(true);
    expect(redirectsToConsole(req('GET', {}), '')).toBe(false);
    expect(redirectsToConsole(req('GET', { accept: 'application/json' }), '')).toBe(false);
    expect(
      redirectsToConsole(
        req('GET', { accept: 'text/html', 'openstack-api-version': 'placement 1.39' }),
        '',
      ),
    ).toBe(false);
  });
});
