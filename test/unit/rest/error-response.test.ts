// Placement's error document and webob's representation choice.
import { errorResponse } from '../../../src/rest/error-response';
import { HttpError } from '../../../src/rest/http-error';
import { parseVersionOrThrow } from '../../../src/rest/microversion';

const env = { REQUEST_METHOD: 'GET', HTTP_ACCEPT: 'application/json', CONTENT_TYPE: 'None' };
const ctx = (over: Partial<Parameters<typeof errorResponse>[1]> = {}) => ({
  accept: 'application/json',
  requestId: 'req-1',
  version: parseVersionOrThrow('1.23'),
  env,
  ...over,
});

describe('errorResponse', () => {
  it('writes {"errors":[{status,title,detail,code,request_id}]} from 1.23', () => {
    const r = errorResponse(new HttpError(409, 'boom', 'placement.concurrent_update'), ctx());
    expect(r.headers['content-type']).toBe('application/json');
    expect(JSON.parse(r.body!)).toEqual({
      errors: [
        {
          status: 409,
          title: 'Conflict',
          // webob's template ends '${detail}\n${html_comment}\n': two trailing spaces.
          detail: 'There was a conflict when trying to complete your request.\n\n boom  ',
          code: 'placement.concurrent_update',
          request_id: 'req-1',
        },
      ],
    });
  });

  it.each([
    ['berth.inventory.invalid', 'placement.undefined_code'],
    ['berth.candidates.no_resources', 'placement.query.missing_value'],
    ['berth.quota.exceeded', 'berth.quota.exceeded'],
    ['placement.inventory.inuse', 'placement.inventory.inuse'],
  ])('sends %s as Placement does: %s', (code, sent) => {
    const r = errorResponse(new HttpError(400, 'x', code), ctx());
    expect(JSON.parse(r.body!).errors[0].code).toBe(sent);
  });

  it('leaves the code out before 1.23', () => {
    const r = errorResponse(new HttpError(404), ctx({ version: parseVersionOrThrow('1.22') }));
    expect(JSON.parse(r.body!).errors[0]).not.toHaveProperty('code');
  });

  it('adds min and max version to a 406 of failed negotiation', () => {
    const r = errorResponse(new HttpError(406, 'bad'), ctx({ version: undefined }));
    expect(JSON.parse(r.body!).errors[0]).toMatchObject({
      max_version: '1.39',
      min_version: '1.0',
    });
  });

  it('answers text/html when the client prefers it', () => {
    const r = errorResponse(new HttpError(404), ctx({ accept: 'text/html' }));
    expect(r.headers['content-type']).toMatch(/^text\/html/);
    expect(r.body).toContain('The resource could not be found');
  });

  it('names the method in a 405', () => {
    const r = errorResponse(
      new HttpError(405, 'The method specified is not allowed for this resource.', undefined, {
        allow: 'GET',
      }),
      ctx({ env: { ...env, REQUEST_METHOD: 'DELETE' } }),
    );
    expect(r.headers.allow).toBe('GET');
    expect(JSON.parse(r.body!).errors[0].detail).toContain(
      'The method DELETE is not allowed for this resource.',
    );
  });
});
