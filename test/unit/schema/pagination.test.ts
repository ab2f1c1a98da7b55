// schema/pagination.ts: the cursor spelling every GraphQL connection hands out (base64 of
// `<Kind>:<n>`) and the refusals of anything else.
import {
  connectionOf,
  cursorOf,
  cursorValueOrThrow,
  idConnectionOf,
  pageSizeOrThrow,
} from '../../../schema/pagination';

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('cursors', () => {
  it('are base64 of kind:n and read back', () => {
    expect(cursorOf('ResourceProvider', 42)).toBe(b64('ResourceProvider:42'));
    expect(cursorValueOrThrow('ResourceProvider', b64('ResourceProvider:42'))).toBe(42);
    expect(cursorValueOrThrow('AuditEvent', cursorOf('AuditEvent', 1), 1)).toBe(1);
  });

  it.each([
    ['another kind', b64('Consumer:42')],
    ['a kind that only starts the same', b64('ResourceProviderRank:42')],
    ['a negative number', b64('ResourceProvider:-1')],
    ['a fraction', b64('ResourceProvider:1.5')],
    ['another spelling of the number', b64('ResourceProvider:042')],
    ['not base64 of a cursor', 'nonsense'],
  ])('refuses %s', (_what, cursor) => {
    expect(() => cursorValueOrThrow('ResourceProvider', cursor)).toThrow(
      `Invalid cursor '${cursor}'.`,
    );
  });

  it('refuses a number below the least and names the context', () => {
    expect(() => cursorValueOrThrow('AuditEvent', cursorOf('AuditEvent', 0), 1)).toThrow(
      /^Invalid cursor '.*'\.$/,
    );
    expect(() => cursorValueOrThrow('Rank', 'x', 0, ' for an ordered listing')).toThrow(
      "Invalid cursor 'x' for an ordered listing.",
    );
  });
});

describe('pages', () => {
  it('takes 100 by default and 0 to 1000', () => {
    expect(pageSizeOrThrow(undefined)).toBe(100);
    expect(pageSizeOrThrow(0)).toBe(0);
    expect(pageSizeOrThrow(1000)).toBe(1000);
    expect(() => pageSizeOrThrow(1001)).toThrow('first must be from 0 to 1000');
    expect(() => pageSizeOrThrow(-1)).toThrow('first must be from 0 to 1000');
  });

  it('build forward-only connections from one extra row', () => {
    const rows = [{ id: 3 }, { id: 5 }, { id: 9 }];
    const page = idConnectionOf('Thing', rows, 2);
    expect(page.edges.map((e) => e.node.id)).toEqual([3, 5]);
    expect(page.pageInfo).toEqual({
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: cursorOf('Thing', 3),
      endCursor: cursorOf('Thing', 5),
    });
    expect(idConnectionOf('Thing', rows, 3).pageInfo.hasNextPage).toBe(false);
    expect(connectionOf([], false).pageInfo).toEqual({
      hasNextPage: false,
      hasPreviousPage: false,
      startCursor: null,
      endCursor: null,
    });
  });
});
