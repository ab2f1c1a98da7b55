// noauth2 callers and the admin-only default policy (upstream: auth.py NoAuthMiddleware).
import { authenticate, noAuthCaller } from '../../../src/rest/auth';
import { authorizeOrThrow } from '../../../src/rest/policy';

describe('noAuthCaller', () => {
  it.each([
    { name: 'no token is anonymous (401)', headers: {}, want: null },
    {
      name: "'admin' is an admin of project admin",
      headers: { 'x-auth-token': 'admin' },
      want: { userId: 'admin', projectId: 'admin', roles: ['admin'], systemScope: null },
    },
    {
      name: "'user:project' splits user and project, no roles",
      headers: { 'x-auth-token': 'alice:p1' },
      want: { userId: 'alice', projectId: 'p1', roles: [], systemScope: null },
    },
    {
      name: 'x-roles and x-project-id override',
      headers: { 'x-auth-token': 'user', 'x-roles': 'admin,member,reader', 'x-project-id': 'p2' },
      want: {
        userId: 'user',
        projectId: 'p2',
        roles: ['admin', 'member', 'reader'],
        systemScope: null,
      },
    },
    {
      name: 'a system-scoped token has no project',
      headers: { 'x-auth-token': 'user', 'x-roles': 'admin', 'openstack-system-scope': 'all' },
      want: { userId: 'user', projectId: null, roles: ['admin'], systemScope: 'all' },
    },
  ])('$name', ({ headers, want }) => {
    expect(noAuthCaller(headers)).toEqual(want);
  });
});

describe('authorizeOrThrow', () => {
  it('allows project-scoped admins and refuses everyone else with 403', () => {
    const admin = noAuthCaller({ 'x-auth-token': 'admin' })!;
    expect(() => authorizeOrThrow(admin, 'placement:resource_providers:list')).not.toThrow();
    for (const headers of [
      { 'x-auth-token': 'user' },
      { 'x-auth-token': 'user', 'x-roles': 'member,reader' },
      { 'x-auth-token': 'user', 'x-roles': 'admin', 'openstack-system-scope': 'all' },
    ]) {
      expect(() => authorizeOrThrow(noAuthCaller(headers)!, 'placement:traits:list')).toThrow(
        'Policy does not allow placement:traits:list to be performed.',
      );
    }
  });
});

describe('authenticate', () => {
  it('treats token mode with auth off (no authenticator) as an unscoped admin', async () => {
    expect(await authenticate('token', {})).toMatchObject({
      ok: true,
      caller: { roles: ['admin'] },
    });
  });

  it('answers 401 in noauth2 mode without x-auth-token, and a caller with one', async () => {
    expect(await authenticate('noauth2', {})).toEqual({ ok: false, reason: '' });
    expect(await authenticate('noauth2', { 'x-auth-token': 'admin' })).toMatchObject({
      ok: true,
      caller: { userId: 'admin', roles: ['admin'] },
    });
  });
});

describe('authorizeOrThrow with berth token callers', () => {
  const caller = (role: 'reader' | 'scheduler' | 'admin', project: string | null = null) => ({
    userId: 'token:x',
    projectId: project,
    roles: [role],
    systemScope: null,
    token: { id: 'x', role, project },
  });

  it.each([
    { role: 'reader', action: 'placement:resource_providers:list', ok: true },
    { role: 'reader', action: 'placement:allocations:update', ok: false },
    { role: 'scheduler', action: 'placement:allocations:update', ok: true },
    { role: 'scheduler', action: 'placement:traits:update', ok: false },
    { role: 'admin', action: 'placement:traits:update', ok: true },
  ] as const)('$role → $action: $ok', ({ role, action, ok }) => {
    const run = () => authorizeOrThrow(caller(role), action);
    if (ok) {
      expect(run).not.toThrow();
    } else {
      expect(run).toThrow(`Policy does not allow ${action} to be performed.`);
    }
  });

  it('refuses REST allocation writes to a project-scoped token but allows its reads', () => {
    expect(() => authorizeOrThrow(caller('scheduler', 'p'), 'placement:usages')).not.toThrow();
    expect(() =>
      authorizeOrThrow(caller('scheduler', 'p'), 'placement:allocations:manage'),
    ).toThrow(/Project-scoped tokens/);
  });
});
