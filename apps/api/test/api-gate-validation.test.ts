// POST /v1/agents/{agent}/calls refusing bad requests over real HTTP on loopback: the exact error bodies
// (code, message, issues with JSON Pointer paths) for bad bodies, bodies that are not JSON, other media
// types, oversize bodies, arguments nested too deep and bad agent names; keys are judged first and the
// agent's key after the body; nothing is recorded. The bodies are those zod's validators gave (call-request.ts reads by hand).
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, type LooseJson, postLarge, startServer, type TestServer } from './server-harness.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.stop();
});

const CALLS = '/v1/agents/support-bot/calls';
const count = () => countRows(s, 'decisions');
const call = (body: unknown, key = s.key('agent'), path = CALLS) => s.call('POST', path, { key, body });

/** A POST with exactly these headers and body chunks (none: no body at all), over node:http. */
function post(path: string, headers: Record<string, string>, chunks: string[]): Promise<{ status: number; json: LooseJson }> {
  return new Promise((resolve, reject) => {
    const req = request(s.url + path, { method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

const invalidBody = (message: string, issues: { path: string; code: string; message: string }[]) => ({
  error: { code: 'INVALID_BODY', message, details: { issues } },
});

describe('the gate refusing bad requests', () => {
  let before: number;
  let decided = 0;
  beforeAll(async () => {
    before = await count();
  });
  afterAll(async () => {
    expect(await count()).toBe(before + decided);
  });

  it('names a missing tool and missing arguments', async () => {
    const r = await call({ arguments: { amount: '50' } });
    expect(r.status).toBe(400);
    expect(r.json).toEqual(
      invalidBody('/tool: Invalid input: expected string, received undefined', [
        { path: '/tool', code: 'invalid_type', message: 'Invalid input: expected string, received undefined' },
      ]),
    );
    const nothing = await call({});
    expect(nothing.json.error.details.issues.map((i: { path: string }) => i.path)).toEqual(['/tool', '/arguments']);
  });

  it('names every member of the wrong type, in the schema order', async () => {
    const r = await call({ confirmed: 'yes', contexts: 'x', session: '', arguments: ['50'], tool: 42 });
    expect(r.status).toBe(400);
    expect(r.json).toEqual(
      invalidBody('/tool: Invalid input: expected string, received number', [
        { path: '/tool', code: 'invalid_type', message: 'Invalid input: expected string, received number' },
        { path: '/arguments', code: 'invalid_type', message: 'Invalid input: expected record, received array' },
        { path: '/session', code: 'too_small', message: 'Too small: expected string to have >=1 characters' },
        { path: '/contexts', code: 'invalid_type', message: 'Invalid input: expected record, received string' },
        { path: '/confirmed', code: 'invalid_type', message: 'Invalid input: expected boolean, received string' },
      ]),
    );
    const long = await call({ tool: 'x'.repeat(129), arguments: null, session: 's'.repeat(257) });
    expect(long.json).toEqual(
      invalidBody('/tool: Too big: expected string to have <=128 characters', [
        { path: '/tool', code: 'too_big', message: 'Too big: expected string to have <=128 characters' },
        { path: '/arguments', code: 'invalid_type', message: 'Invalid input: expected record, received null' },
        { path: '/session', code: 'too_big', message: 'Too big: expected string to have <=256 characters' },
      ]),
    );
  });

  it('names unknown members after the others, and a body that is not an object', async () => {
    const r = await call({ tool: 'issue_refund', extra: true, arguments: 7, 'a/b~c': 1 });
    expect(r.status).toBe(400);
    expect(r.json).toEqual(
      invalidBody('/arguments: Invalid input: expected record, received number', [
        { path: '/arguments', code: 'invalid_type', message: 'Invalid input: expected record, received number' },
        { path: '', code: 'unrecognized_keys', message: 'Unrecognized keys: "extra", "a/b~c"' },
      ]),
    );
    const one = await call({ tool: 'issue_refund', arguments: {}, extra: true });
    expect(one.json).toEqual(
      invalidBody('the body: Unrecognized key: "extra"', [{ path: '', code: 'unrecognized_keys', message: 'Unrecognized key: "extra"' }]),
    );
    for (const [body, type] of [
      [[1, 2], 'array'],
      [null, 'null'],
      ['call', 'string'],
      [5, 'number'],
    ] as const) {
      const r = await call(body);
      expect(r.status).toBe(400);
      const message = `Invalid input: expected object, received ${type}`;
      expect(r.json).toEqual(invalidBody(`the body: ${message}`, [{ path: '', code: 'invalid_type', message }]));
    }
  });

  it('refuses arguments nested too deep with 400, never 500', async () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    const raw = (n: number) => `{"tool":"issue_refund","arguments":{"amount":"50","x":${deep(n)}}}`;
    const json = { authorization: `Bearer ${s.key('agent')}`, 'content-type': 'application/json' };
    // Past the deepest any body may nest, the reader refuses it before the route reads it.
    const r = await post(CALLS, json, [raw(100_000)]);
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('INVALID_BODY');
    expect(r.json.error.details.issues).toEqual([
      { path: `/arguments/x${'/0'.repeat(70)}`, code: 'too_deep', message: 'Too deep: a body nests at most 72 levels' },
    ]);
    // Within it, the arguments' own limit.
    const arguments65 = await post(CALLS, json, [raw(64)]);
    expect(arguments65.status).toBe(400);
    expect(arguments65.json.error.details.issues).toEqual([
      { path: `/arguments/x${'/0'.repeat(63)}`, code: 'too_deep', message: 'Too deep: arguments nest at most 64 levels' },
    ]);
    // 64 levels (the arguments object, then 63 arrays) are decided.
    const fits = await post(CALLS, json, [raw(63)]);
    expect(fits.status).toBe(200);
    expect(fits.json.decision).toBe('allow');
    decided++;
  });

  it('answers 400 INVALID_JSON for a body that is not JSON, INVALID_BODY for none, 415 for another media type or an untyped body', async () => {
    const json = { authorization: `Bearer ${s.key('agent')}`, 'content-type': 'application/json' };
    // Each says where the body stops being JSON.
    const cases: [string, { line: number; column: number }][] = [
      ['not json at all', { line: 1, column: 1 }],
      ['{"tool": "issue_refund", ', { line: 1, column: 26 }],
      ['{"tool": "issue_refund",\n  "arguments": {"amount": "50"},\n}', { line: 3, column: 1 }],
    ];
    for (const [raw, at] of cases) {
      const r = await post(CALLS, json, [raw]);
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ error: { code: 'INVALID_JSON', message: 'Malformed JSON in request body', details: at } });
    }
    const body = '{"tool":"issue_refund","arguments":{"amount":"50"}}';
    const plain = await post(CALLS, { authorization: json.authorization, 'content-type': 'text/plain' }, [body]);
    expect(plain.status).toBe(415);
    expect(plain.json).toEqual({ error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Unsupported Media Type' } });
    const untyped = await post(CALLS, { authorization: json.authorization }, [body]);
    expect(untyped.status).toBe(415);
    // No body, typed or not, is a missing body, as on every route that requires one.
    for (const headers of [json, { authorization: json.authorization }]) {
      const empty = await post(CALLS, headers, []);
      expect(empty.status).toBe(400);
      expect(empty.json).toEqual({ error: { code: 'INVALID_BODY', message: 'a body is required' } });
    }
    const emptyText = await post(CALLS, json, ['']);
    expect(emptyText.json).toEqual({ error: { code: 'INVALID_BODY', message: 'a body is required' } });
    // A JSON type with parameters, and a +json type, are JSON.
    const charset = await post(CALLS, { ...json, 'content-type': 'application/json; charset=utf-8' }, ['{"tool":"issue_refund"}']);
    expect(charset.json.error.details.issues).toEqual([
      { path: '/arguments', code: 'invalid_type', message: 'Invalid input: expected record, received undefined' },
    ]);
  });

  it('answers 413 for a body over the limit, with a length or chunked', async () => {
    const huge = JSON.stringify({ tool: 'issue_refund', arguments: { note: 'x'.repeat(2 * 1024 * 1024) } });
    const sized = await postLarge(s.url, CALLS, s.key('agent'), huge);
    expect(sized.status).toBe(413);
    expect(sized.json.error.code).toBe('TOO_LARGE');
    const chunks = Array.from({ length: 40 }, () => 'x'.repeat(64 * 1024));
    const chunked = await post(
      CALLS,
      { authorization: `Bearer ${s.key('agent')}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      ['{"tool":"issue_refund","arguments":{"note":"', ...chunks, '"}}'],
    ).catch(() => ({ status: 413, json: { error: { code: 'TOO_LARGE' } } }));
    expect(chunked.status).toBe(413);
    expect(chunked.json.error.code).toBe('TOO_LARGE');
  });

  it('answers 400 INVALID_ID for an agent name over 128 characters, before the body', async () => {
    const valid = { tool: 'issue_refund', arguments: { amount: '50' } };
    const long = await call(valid, s.key('agent'), `/v1/agents/${'a'.repeat(129)}/calls`);
    expect(long.status).toBe(400);
    expect(long.json).toEqual({
      error: {
        code: 'INVALID_ID',
        message: '/agent: Too big: expected string to have <=128 characters',
        details: { issues: [{ path: '/agent', code: 'too_big', message: 'Too big: expected string to have <=128 characters' }] },
      },
    });
    const both = await call({ tool: 42 }, s.key('agent'), `/v1/agents/${'a'.repeat(129)}/calls`);
    expect(both.json.error.code).toBe('INVALID_ID');
    // 128 characters (and an emoji with 127 letters, 129 UTF-16 units) pass; the key then belongs to another agent.
    for (const name of ['a'.repeat(128), encodeURIComponent(`😀${'a'.repeat(127)}`)]) {
      const fits = await call(valid, s.key('agent'), `/v1/agents/${name}/calls`);
      expect(fits.status).toBe(403);
      expect(fits.json.error.code).toBe('AGENT_MISMATCH');
    }
    // 65 emoji are 65 characters, but agents/<name>.agent.yaml would be a file name over 200 bytes: no agent has it.
    const wide = await call(valid, s.key('agent'), `/v1/agents/${encodeURIComponent('😀'.repeat(65))}/calls`);
    expect([wide.status, wide.json.error.code, wide.json.error.details.issues[0].path]).toEqual([400, 'INVALID_ID', '/agent']);
  });

  it('judges the key before the request, and whose key it is after it', async () => {
    const bad = { tool: 42 };
    const none = await s.call('POST', CALLS, { body: bad });
    expect(none.status).toBe(401);
    expect(none.json.error.code).toBe('MISSING_KEY');
    const wrong = await call(bad, 'tg_not-a-key');
    expect(wrong.status).toBe(401);
    expect(wrong.json.error.code).toBe('INVALID_KEY');
    const member = await call(bad, s.key('owner'));
    expect(member.status).toBe(400);
    expect(member.json.error.code).toBe('INVALID_BODY');
    const memberValid = await call({ tool: 'issue_refund', arguments: {} }, s.key('owner'));
    expect(memberValid.status).toBe(403);
    expect(memberValid.json.error.code).toBe('AGENT_KEY_REQUIRED');
  });
});
