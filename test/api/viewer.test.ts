// `viewer`: every caller may ask who berth thinks it is (the console offers actions from it).
import { createTestApp, type TestApp } from '../support/app';
import { gql } from '../support/graphql';

const VIEWER = '{ viewer { role projectId authenticated } }';

describe('viewer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ BERTH_AUTH: 'on' });
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    ['member', 'proj'],
    ['reader', null],
    ['scheduler', 'proj'],
    ['service', null],
    ['admin', null],
  ] as const)('answers a %s token (project %s) with its role and scope', async (role, project) => {
    const { token } = await t.app.tokens.create({ role, ...(project ? { project } : {}) });
    const r = await gql(t.app, VIEWER, {}, { authorization: `Bearer ${token}` });
    expect(r.errors).toBeUndefined();
    expect(r.data.viewer).toEqual({ role, projectId: project, authenticated: true });
  });

  it('answers admin, unauthenticated, when authentication is off', async () => {
    const off = await createTestApp();
    try {
      const r = await gql(off.app, VIEWER, {});
      expect(r.data.viewer).toEqual({ role: 'admin', projectId: null, authenticated: false });
    } finally {
      await off.close();
    }
  });
});
