// Unit tests of how an API answer becomes the one ApiError the pages show, and of the precondition header.
import { describe, expect, it } from 'vitest';
import { ApiError, apiErrorOf, CHANGED_SINCE_OPENED } from './api-error.ts';
import { ifMatch } from './client.ts';

describe('apiErrorOf', () => {
  it('keeps the error shape: status, code, message and details', () => {
    const error = apiErrorOf(404, { error: { code: 'NOT_FOUND', message: 'no document x', details: { resource: 'document' } } });
    expect([error.status, error.code, error.message, error.details]).toEqual([404, 'NOT_FOUND', 'no document x', { resource: 'document' }]);
    expect(error.changedSinceOpened).toBe(false);
  });
  it('says a failed or missing precondition as a change since the document was opened', () => {
    for (const [status, code] of [
      [412, 'PRECONDITION_FAILED'],
      [428, 'PRECONDITION_REQUIRED'],
    ] as const) {
      const error = apiErrorOf(status, { error: { code, message: 'version 7 is the newest', details: { current: 7 } } });
      expect(error).toBeInstanceOf(ApiError);
      expect(error.changedSinceOpened).toBe(true);
      expect(error.message).toBe(`${CHANGED_SINCE_OPENED}: version 7 is the newest`);
      expect(error.code).toBe(code);
    }
  });
  it('names the status when the answer is not the error shape', () => {
    for (const body of [undefined, null, '<html>', { message: 'x' }, { error: 'x' }]) {
      const error = apiErrorOf(502, body);
      expect([error.code, error.message]).toEqual(['HTTP_ERROR', 'the server answered 502']);
    }
  });
});

describe('ifMatch', () => {
  it('quotes the version as a strong entity tag', () => {
    expect(ifMatch(7)).toEqual({ 'if-match': '"7"' });
  });
});
