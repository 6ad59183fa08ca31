// POST /v1/rule-sheets/compile without a data folder (the body {sheet | colang, catalogue?, catalogue_format?} the
// authenticated route takes too): in-process through app.request(), and over a real socket for the body limit.
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/server/app.ts';
import { GOVERNED_SHEET, SHOP_CATALOGUE, SHOP_SHEET, startServer, UNSUPPORTED_SHEET } from './rules-fixtures.ts';

const LIMIT = 8 * 1024 * 1024;
const JSON_HEADERS = { 'content-type': 'application/json' };

interface Diagnostic {
  code: string;
  path?: string;
  line: number;
  column: number;
}

/** Either answer's members: a test asserts which are there before it reads them. */
interface Body {
  colang: string | null;
  rulebook: unknown;
  source_map: { file: string; flows: Record<string, { line: number }> };
  overlay: { tools: Record<string, unknown> };
  lints: Diagnostic[];
  error: { code: string; message: string; details: { issues?: { path: string }[]; problems: Diagnostic[] } };
}

interface Answer {
  status: number;
  text: string;
  json: Body;
}

async function post(body: unknown, app = createApp()): Promise<Answer> {
  const res = await app.request('/v1/rule-sheets/compile', {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: JSON_HEADERS,
  });
  const text = await res.text();
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return { status: res.status, text, json: JSON.parse(text) };
}

/** An error answer: one code, a message, and nothing of the server's insides. */
function expectError(answer: Answer, code: string) {
  expect(answer.json.error.code).toBe(code);
  expect(typeof answer.json.error.message).toBe('string');
  expect(answer.text).not.toMatch(/\bat .+:\d+:\d+|Error:|node_modules|\.ts\b/);
}

const SHOP_RULEBOOK = {
  format: 'tollgate/rulebook@1',
  flows: [
    {
      action: 'refund_card',
      allow_when: { any: [{ context: 'supervisor_approved' }, { not: { arg: 'amount', op: 'gt', value: { decimal: '200' } } }] },
    },
  ],
};

const problemLines = (json: Body) => json.error.details.problems.map((p) => p.line);

describe('POST /v1/rule-sheets/compile', () => {
  it('answers 200 with the compiled sheet: Colang, rulebook, source map, overlay and lints', async () => {
    const answer = await post({ source: 'shop.rules.yaml', sheet: SHOP_SHEET, catalogue: SHOP_CATALOGUE, catalogue_format: 'yaml' });
    expect(answer.status).toBe(200);
    const { json } = answer;
    expect(Object.keys(json).sort()).toEqual(['colang', 'lints', 'overlay', 'rulebook', 'source_map']);
    expect(json.rulebook).toEqual(SHOP_RULEBOOK);
    expect(json.overlay).toEqual({
      format: 'tollgate/catalogue-overlay@1',
      tools: { charge_card: { confirmation: 'Confirm the call to charge_card?' }, send_receipt: { after: ['charge_card'], at_most: 1 } },
    });
    expect(json.source_map).toEqual({ file: 'shop.rules.yaml', flows: { refund_card: { line: 3 } }, contexts: {} });
    expect(json.colang).toMatch(/^# Compiled from shop\.rules\.yaml by tollgate\./);
    expect(json.colang).toContain('define flow refund_card\n  allow when not $when_refund_card or $supervisor_approved\n');
    expect(json.lints.map((l) => [l.code, l.line])).toEqual([['write_ungoverned', 2]]);
  });

  it('compiles a sheet without a catalogue, and Colang (whose answer has colang null)', async () => {
    const sheet = await post({ sheet: SHOP_SHEET });
    expect(sheet.status).toBe(200);
    expect(sheet.json.lints).toEqual([]);
    const colang = await post({ colang: sheet.json.colang });
    expect(colang.status).toBe(200);
    expect(colang.json.colang).toBeNull();
    expect(colang.json.rulebook).toEqual(sheet.json.rulebook);
  });

  it('answers 422 rule_sheet_unsupported for the reference unsupported.yaml (docs/rule-sheets.md), the problem on line 4', async () => {
    const answer = await post({ sheet: UNSUPPORTED_SHEET });
    expect(answer.status).toBe(422);
    expectError(answer, 'rule_sheet_unsupported');
    expect(answer.json.error.message).toBe('the sheet was not compiled; nothing was changed');
    expect(answer.json.error.details.problems).toEqual([
      {
        code: 'rule_sheet_unsupported',
        severity: 'error',
        message: '`refund_card` has a rule already: one rule per action, so how two would combine is never guessed',
        line: 4,
        column: 13,
        endLine: 4,
        endColumn: 24,
      },
    ]);
  });

  it('lists every problem of a sheet with its line', async () => {
    const text = 'rules:\n  - action: refund_card\n    when: { amount_over: 200 }\n  - action: charge_card\n\tnever: true\n';
    const answer = await post({ sheet: text });
    expect(answer.status).toBe(422);
    expectError(answer, 'rule_sheet_unsupported');
    expect(problemLines(answer.json)).toContain(5);
    const many = await post({
      sheet:
        'rules:\n  - action: refund_card\n    when: { amount_over: 200 }\n  - action: charge_card\n    never: true\n    at_most: 2\n  - action: send_receipt\n    colour: blue\n',
    });
    expect(many.status).toBe(422);
    expect(problemLines(many.json)).toEqual([3, 5, 8]);
  });

  it('answers 422 COLANG_UNSUPPORTED for refused Colang, each problem with its Colang code', async () => {
    const answer = await post({ colang: 'define flow refund_card\n  refuse\n\ndefine flow refund_card\n  refuse\n' });
    expect(answer.status).toBe(422);
    expectError(answer, 'COLANG_UNSUPPORTED');
    expect(answer.json.error.details.problems.map((p: { code: string }) => p.code)).toEqual(['colang_duplicate']);
    expect(answer.json.error.message).toBe('the policy was not compiled; nothing was changed');
    expect(problemLines(answer.json)).toEqual([4]);
  });

  it('answers 422 INVALID_CATALOGUE with its problems for a catalogue that does not load', async () => {
    const answer = await post({
      sheet: SHOP_SHEET,
      catalogue: 'tools:\n  - name: refund_card\n    kind: maybe\n',
    });
    expect(answer.status).toBe(422);
    expectError(answer, 'INVALID_CATALOGUE');
    expect(answer.json.error.details.problems.map((p) => `${p.code} ${p.path}`)).toEqual([
      'MISSING_MEMBER /tools/0/action',
      'INVALID_VALUE /tools/0/kind',
    ]);
    const json = await post({ sheet: SHOP_SHEET, catalogue: '{"tools": [}', catalogue_format: 'json' });
    expect(json.status).toBe(422);
    expectError(json, 'INVALID_CATALOGUE');
  });

  describe('400 for a body it cannot read', () => {
    it.each([
      ['a body that is not JSON', '{"sheet": "rules:'],
      ['an empty body', ''],
      ['a JSON list', '[]'],
      ['JSON null', 'null'],
      ['a JSON string', '"rules:"'],
    ])('%s: INVALID_BODY', async (_name, body) => {
      const answer = await post(body);
      expect(answer.status).toBe(400);
      expectError(answer, 'INVALID_BODY');
    });

    it.each([
      ['an unknown member (the old kind)', { kind: 'sheet', sheet: SHOP_SHEET }, ''],
      ['a sheet that is not a string', { sheet: ['rules:'] }, '/sheet'],
      ['a colang that is not a string', { colang: 42 }, '/colang'],
      ['a wrong catalogue format', { sheet: SHOP_SHEET, catalogue: SHOP_CATALOGUE, catalogue_format: 'toml' }, '/catalogue_format'],
      ['a catalogue that is an object', { sheet: SHOP_SHEET, catalogue: { text: SHOP_CATALOGUE, format: 'yaml' } }, '/catalogue'],
      ['a null catalogue', { sheet: SHOP_SHEET, catalogue: null }, '/catalogue'],
    ])('%s: INVALID_BODY at its path', async (_name, body, path) => {
      const answer = await post(body);
      expect(answer.status).toBe(400);
      expectError(answer, 'INVALID_BODY');
      expect(answer.json.error.details.issues?.[0]?.path).toBe(path);
    });
  });

  it('answers 413 TOO_LARGE for a body over the limit, in process', async () => {
    const answer = await post({ sheet: `# ${'x'.repeat(LIMIT)}\nrules: []\n` });
    expect(answer.status).toBe(413);
    expectError(answer, 'TOO_LARGE');
    expect(answer.json.error.message).toBe(`the body is over ${LIMIT} bytes`);
  });

  it('keeps nothing between calls: each answer depends on its own body only', async () => {
    const app = createApp();
    const first = await post({ sheet: SHOP_SHEET, catalogue: SHOP_CATALOGUE }, app);
    const refused = await post({ sheet: UNSUPPORTED_SHEET }, app);
    const second = await post({ sheet: GOVERNED_SHEET }, app);
    const again = await post({ sheet: SHOP_SHEET, catalogue: SHOP_CATALOGUE }, app);
    expect(first.status).toBe(200);
    expect(refused.status).toBe(422);
    expect(second.status).toBe(200);
    // No catalogue this time: no lints, though the first call had one.
    expect(second.json.lints).toEqual([]);
    expect(second.json.source_map.flows).toEqual({ refund_card: { line: 2 } });
    expect(Object.keys(second.json.overlay.tools).sort()).toEqual(['charge_card', 'close_account', 'send_receipt']);
    // The same body answers the same bytes, whatever came between.
    expect(again.text).toBe(first.text);
    // A fresh app answers the same as the used one.
    expect((await post({ sheet: GOVERNED_SHEET })).text).toBe(second.text);
  });

  it('answers 404 NO_ROUTE as JSON for another method on the route', async () => {
    const res = await createApp().request('/v1/rule-sheets/compile');
    expect(res.status).toBe(404);
    expect(((await res.json()) as Body).error.code).toBe('NO_ROUTE');
  });

  describe('over a real socket', () => {
    it('answers 413 to a body over the limit sent with a content-length', async () => {
      const server = await startServer();
      try {
        const body = JSON.stringify({ sheet: `# ${'x'.repeat(LIMIT)}\n` });
        const res = await fetch(`${server.url}/v1/rule-sheets/compile`, { method: 'POST', headers: JSON_HEADERS, body });
        expect(res.status).toBe(413);
        expect(((await res.json()) as Body).error.code).toBe('TOO_LARGE');
      } finally {
        await server.close();
      }
    });

    it('answers 413 to a chunked body over the limit, with no content-length to go by', async () => {
      const server = await startServer();
      try {
        const answer = await sendChunked(`${server.url}/v1/rule-sheets/compile`, LIMIT + 64 * 1024);
        expect(answer.status).toBe(413);
        expect(JSON.parse(answer.body).error.code).toBe('TOO_LARGE');
        // The server still answers afterwards.
        const ok = await fetch(`${server.url}/v1/rule-sheets/compile`, {
          method: 'POST',
          headers: JSON_HEADERS,
          body: JSON.stringify({ sheet: SHOP_SHEET }),
        });
        expect(ok.status).toBe(200);
        expect(((await ok.json()) as Body).rulebook).toEqual(SHOP_RULEBOOK);
      } finally {
        await server.close();
      }
    });

    it('answers 200 to a body just under the limit sent in chunks', async () => {
      const server = await startServer();
      try {
        const padding = LIMIT - 1024;
        const text = `# ${'x'.repeat(padding)}\n${SHOP_SHEET}`;
        const answer = await sendChunked(`${server.url}/v1/rule-sheets/compile`, 0, JSON.stringify({ sheet: text }));
        expect(answer.status).toBe(200);
        expect(JSON.parse(answer.body).rulebook).toEqual(SHOP_RULEBOOK);
      } finally {
        await server.close();
      }
    });
  });
});

/** POSTs with Transfer-Encoding: chunked (no content-length): `size` bytes of padding, or `text`. */
function sendChunked(url: string, size: number, text?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest(url, { method: 'POST', headers: { ...JSON_HEADERS, 'transfer-encoding': 'chunked' } }, (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    // The server may answer and stop reading before the whole body is sent; that is the point.
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    const payload = Buffer.from(text ?? `{"sheet": "${'x'.repeat(size)}"}`);
    const chunk = 64 * 1024;
    let offset = 0;
    const pump = () => {
      while (offset < payload.length) {
        const part = payload.subarray(offset, offset + chunk);
        offset += chunk;
        if (!req.write(part)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}
