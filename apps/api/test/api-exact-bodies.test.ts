// Every request body is read by the one exact reader, over real HTTP: duplicated members (plain, nested,
// spelled with an escape) are refused before any route runs, amounts given as JSON numbers must be written
// as safe integers, argument conditions compare the number as written, documents in bodies are held to
// what their files would be, bodies that are not UTF-8 or nest too deep are 400s, and a held call's kept
// numbers are shown, stored and claimed as written. No case answers 500 or records a decision it refused.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOVERNED_SHEET, SHOP_CATALOGUE } from './rules-fixtures.ts';
import { agentKey, countRows, type LooseJson, postEdit, startServer, type TestServer } from './server-harness.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.stop();
});

const SUPPORT = '/v1/agents/support-bot/calls';
const REFUNDS = '/v1/agents/refunds-bot/calls';
const refundsKey = () => agentKey(s, 'refunds-bot');

/** POSTs a raw JSON text, exactly as written. */
function postRaw(path: string, raw: string, key: string) {
  return s.call('POST', path, { key, raw, headers: { 'content-type': 'application/json' } });
}

describe('duplicate members', () => {
  it.each([
    ['in the arguments', '{"tool":"issue_refund","arguments":{"amount":"5000","amount":"5"}}', '/arguments/amount'],
    ['spelled with an escape', '{"tool":"issue_refund","arguments":{"amount":"5000","\\u0061mount":"5"}}', '/arguments/amount'],
    ['nested in an object', '{"tool":"issue_refund","arguments":{"amount":"5","meta":{"a":1,"a":2}}}', '/arguments/meta/a'],
    ['of tool', '{"tool":"send_payout","arguments":{"amount":"5"},"tool":"issue_refund"}', '/tool'],
    ['of arguments', '{"tool":"issue_refund","arguments":{"amount":"5000"},"arguments":{"amount":"5"}}', '/arguments'],
  ])('are refused at the gate %s, with the pointer, and nothing is recorded', async (_name, raw, path) => {
    const before = await countRows(s, 'decisions');
    for (const [url, key] of [
      [REFUNDS, refundsKey()],
      [SUPPORT, s.key('agent')],
    ] as const) {
      const r = await postRaw(url, raw, key);
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('DUPLICATE_MEMBER');
      expect(r.json.error.details.issues[0]).toMatchObject({ path, code: 'DUPLICATE_MEMBER', line: 1 });
    }
    expect(await countRows(s, 'decisions')).toBe(before);
  });

  it('are refused in a policy sent to validate and evaluate (two "default" members)', async () => {
    const doc = '{"schema":"tollgate/policy@1","default":"deny","default":"allow","rules":[]}';
    const validate = await postRaw('/v1/policies/validate', `{"document":${doc}}`, s.key('developer'));
    expect(validate.status).toBe(400);
    expect(validate.json.error.details.issues[0].path).toBe('/document/default');
    const evaluate = await postRaw(
      '/v1/policies/evaluate',
      `{"document":${doc},"tool":{"name":"t","action":"a.b"},"arguments":{}}`,
      s.key('developer'),
    );
    expect(evaluate.status).toBe(400);
    expect(evaluate.json.error.code).toBe('DUPLICATE_MEMBER');
  });
});

describe('amounts given as JSON numbers', () => {
  it.each(['100.0000000000000001', '12.0', '1E2', '-0', '1e3', '5e-1', '9007199254740993'])(
    'deny %s with INVALID_AMOUNT: the lexeme decides, not the double',
    async (lexeme) => {
      for (const [url, key] of [
        [SUPPORT, s.key('agent')],
        [REFUNDS, refundsKey()],
      ] as const) {
        const r = await postRaw(url, `{"tool":"issue_refund","arguments":{"amount":${lexeme}}}`, key);
        expect(r.status).toBe(200);
        expect(r.json).toMatchObject({ decision: 'deny', code: 'INVALID_AMOUNT' });
      }
    },
  );

  it('decide a safe integer by its value', async () => {
    const r = await postRaw(SUPPORT, '{"tool":"issue_refund","arguments":{"amount":12}}', s.key('agent'));
    expect(r.json).toMatchObject({ decision: 'allow', rule: 'refund-auto' });
  });
});

const INVENTORY = {
  schema: 'tollgate/policy@1',
  default: 'deny',
  rules: [
    {
      id: 'stock-adjustments',
      actions: ['inventory.adjust'],
      when: [{ path: '/lines/*/qty', for: 'all', gt: '0', lte: '500' }],
      effect: 'allow',
    },
    { id: 'big-adjustments', actions: ['inventory.adjust'], when: [{ path: '/lines/*/qty', for: 'any', gte: '1000' }], effect: 'deny' },
  ],
};

async function evaluateQty(qty: string): Promise<LooseJson> {
  const raw = `{"document":${JSON.stringify(INVENTORY)},"tool":{"name":"adjust_stock","action":"inventory.adjust"},"arguments":{"lines":[{"qty":1},{"qty":${qty}}]}}`;
  const r = await postRaw('/v1/policies/evaluate', raw, s.key('developer'));
  expect(r.status).toBe(200);
  return r.json;
}

describe('argument conditions on JSON numbers', () => {
  it.each([
    ['500.00000000000001', 'deny', null],
    ['500', 'allow', 'stock-adjustments'],
    ['500.0', 'allow', 'stock-adjustments'],
    ['5E2', 'allow', 'stock-adjustments'],
    ['1.50', 'allow', 'stock-adjustments'],
    ['0.0000000000000000001', 'deny', 'big-adjustments'],
    ['1e400', 'deny', 'big-adjustments'],
  ])('qty %s: %s', async (qty, decision, rule) => {
    expect(await evaluateQty(qty)).toMatchObject({ decision, rule });
  });

  it('keeps a deny whose bound a double reading would cross (999.99999999999999 reads as 1000 as a double)', async () => {
    // As written it is below 1000, as a double it is 1000: indeterminate, so the deny still applies.
    expect(await evaluateQty('999.99999999999999')).toMatchObject({ decision: 'deny', rule: 'big-adjustments' });
  });
});

describe('integers in documents sent in a body', () => {
  const doc = (ttl: string) =>
    `{"schema":"tollgate/policy@1","default":"deny","rules":[{"id":"r","actions":["a.b"],"effect":"require_approval","approvers":{"roles":["owner"]},"approval_ttl_seconds":${ttl}}]}`;

  it.each(['6e1', '60.0'])('approval_ttl_seconds %s is INEXACT_NUMBER through validate and evaluate', async (ttl) => {
    const v = await postRaw('/v1/policies/validate', `{"document":${doc(ttl)}}`, s.key('developer'));
    expect(v.status).toBe(200);
    expect(v.json.valid).toBe(false);
    expect(v.json.errors).toEqual([expect.objectContaining({ code: 'INEXACT_NUMBER', path: '/rules/0/approval_ttl_seconds' })]);
    const e = await postRaw(
      '/v1/policies/evaluate',
      `{"document":${doc(ttl)},"tool":{"name":"t","action":"a.b"},"arguments":{}}`,
      s.key('developer'),
    );
    expect(e.status).toBe(422);
    expect(e.json.error.details.errors[0]).toMatchObject({ code: 'INEXACT_NUMBER', path: '/rules/0/approval_ttl_seconds' });
  });

  it('60 is valid', async () => {
    const v = await postRaw('/v1/policies/validate', `{"document":${doc('60')}}`, s.key('developer'));
    expect(v.json).toMatchObject({ valid: true, errors: [] });
  });
});

describe('contradictory amount bounds', () => {
  const policy = (amount: object) => ({
    schema: 'tollgate/policy@1',
    default: 'deny',
    rules: [{ id: 'r', actions: ['refund.issue'], amount: { currency: 'USD', ...amount }, effect: 'allow' }],
  });

  it.each([{ lt: '0' }, { lt: '0', gte: '0' }])('%j admits no amount: CONTRADICTORY_BOUNDS', async (bounds) => {
    const v = await s.call('POST', '/v1/policies/validate', { key: s.key('developer'), body: { document: policy(bounds) } });
    expect(v.json.errors).toEqual([expect.objectContaining({ code: 'CONTRADICTORY_BOUNDS', path: '/rules/0/amount' })]);
  });

  it('an edit with lt "0" is refused and nothing is stored', async () => {
    const id = encodeURIComponent('policies/refunds.policy.json');
    const history = async () => (await s.call('GET', `/v1/documents/${id}/history`, { key: s.key('owner') })).text;
    const before = await history();
    const r = await postEdit(s, 'policies/refunds.policy.json', s.key('owner'), {
      content: `${JSON.stringify(policy({ lt: '0' }), null, 2)}\n`,
      reason: 'test',
    });
    expect(r.status).not.toBe(201);
    expect(r.text).toContain('CONTRADICTORY_BOUNDS');
    expect(await history()).toBe(before);
  });

  it('lte "0" admits the amount 0 and stays valid', async () => {
    const v = await s.call('POST', '/v1/policies/validate', { key: s.key('developer'), body: { document: policy({ lte: '0' }) } });
    expect(v.json.valid).toBe(true);
  });
});

describe('bodies that cannot be read', () => {
  it('a body that is not UTF-8 is INVALID_JSON, never read with replacement characters', async () => {
    const res = await fetch(s.url + SUPPORT, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.key('agent')}`, 'content-type': 'application/json' },
      body: Buffer.concat([Buffer.from('{"tool":"issue_refund","arguments":{"amount":"5","n":"'), Buffer.from([0xff]), Buffer.from('"}}')]),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as LooseJson).error.code).toBe('INVALID_JSON');
  });

  it('an empty chunked body, which no reader can read as JSON, is INVALID_JSON, whichever reader tried', async () => {
    // A chunked body passes the check for a missing body (openapi.ts) and is read by the route's validator.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${s.url}/v1/policies/validate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.key('developer')}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: 'INVALID_JSON', message: 'Malformed JSON in request body', details: { line: 1, column: 1 } },
    });
  });

  it('a byte-order mark is refused with its position', async () => {
    const r = await postRaw(SUPPORT, '\uFEFF{"tool":"issue_refund","arguments":{"amount":"5"}}', s.key('agent'));
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 'INVALID_JSON', details: { line: 1, column: 1 } });
  });

  const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

  const wrappers: [string, string, (d: string) => string, 'agent' | 'developer'][] = [
    ['a claim', '/v1/approvals/00000000-0000-0000-0000-000000000000/claim', (d) => `{"arguments":${d}}`, 'agent'],
    ['an evaluation', '/v1/policies/evaluate', (d) => `{"document":{},"tool":{},"arguments":${d}}`, 'developer'],
    [
      'a simulation',
      '/v1/simulations',
      (d) => `{"document":{"id":"policies/refunds.policy.json"},"calls":[{"tool":{"name":"t","action":"a.b"},"arguments":${d}}]}`,
      'developer',
    ],
    ['a rules check', '/v1/rules/check', (d) => `{"rules":{"sheet":"rules: []"},"call":{"tool":"t","arguments":${d}}}`, 'developer'],
    ['the gate', SUPPORT, (d) => `{"tool":"issue_refund","arguments":${d}}`, 'agent'],
  ];
  it.each(wrappers)('arguments nested 4,000 levels in %s are a 400, never a 500', async (_name, path, body, who) => {
    const r = await postRaw(path, body(deep(4000)), s.key(who));
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('INVALID_BODY');
    expect(r.json.error.details.issues[0].code).toBe('too_deep');
  });

  it.each([
    ['an evaluation', '/v1/policies/evaluate', (d: string) => `{"document":{},"tool":{},"arguments":${d}}`],
    [
      'a simulation',
      '/v1/simulations',
      (d: string) => `{"document":{"id":"policies/refunds.policy.json"},"calls":[{"tool":{"name":"t","action":"a.b"},"arguments":${d}}]}`,
    ],
  ])("arguments nested 65 levels in %s get the gate's too_deep issue", async (_name, path, body) => {
    const r = await postRaw(path, body(deep(65)), s.key('developer'));
    expect(r.status).toBe(400);
    expect(r.json.error.details.issues[0]).toMatchObject({ code: 'too_deep', message: 'Too deep: arguments nest at most 64 levels' });
  });
});

describe('simulations', () => {
  it('refuse a pasted call whose arguments pass 8 KiB, per call, with TOO_LARGE', async () => {
    const tool = { name: 'issue_refund', action: 'refund.issue', amount: { pointer: '/amount', currency: 'USD' } };
    const r = await s.call('POST', '/v1/simulations', {
      key: s.key('developer'),
      body: {
        document: { id: 'policies/refunds.policy.json' },
        calls: [
          { tool, arguments: { amount: '5', note: 'x'.repeat(9000) }, expect: { decision: 'allow' } },
          { tool, arguments: { amount: '5' }, expect: { decision: 'allow' } },
        ],
      },
    });
    expect(r.status).toBe(200);
    expect(r.json.calls[0]).toMatchObject({ status: 'not_evaluable', code: 'TOO_LARGE' });
    expect(r.json.calls[1]).toMatchObject({ status: 'agreed' });
    expect(r.json.counts).toMatchObject({ calls: 2, agreed: 1, not_evaluable: 1 });
  });
});

describe('a held call with numbers kept as written', () => {
  it('is stored, shown, replayed and claimed with its lexemes', async () => {
    const raw = '{"tool":"issue_refund","arguments":{"amount":"500","ratio":1.50,"big":9007199254740993}}';
    const held = await postRaw(SUPPORT, raw, s.key('agent'));
    expect(held.json.decision).toBe('require_approval');
    const id = held.json.approval.id as string;
    const shown = await s.call('GET', `/v1/approvals/${id}`, { key: s.key('owner') });
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('"ratio":1.50');
    expect(shown.text).toContain('"big":9007199254740993');
    const decisions = await s.call('GET', '/v1/decisions?with_arguments=true&limit=1', { key: s.key('owner') });
    expect(decisions.text).toContain('"ratio":1.50');
    const approved = await s.call('POST', `/v1/approvals/${id}/approve`, { key: s.key('owner'), body: { reason: 'ok' } });
    expect(approved.status).toBe(200);
    // The digest binds the text as sent: 1.5 is another call than 1.50.
    const other = await postRaw(
      `/v1/approvals/${id}/claim`,
      '{"arguments":{"amount":"500","ratio":1.5,"big":9007199254740993}}',
      s.key('agent'),
    );
    expect(other.status).toBe(409);
    expect(other.json.error.code).toBe('ARGUMENTS_MISMATCH');
    const claim = await postRaw(
      `/v1/approvals/${id}/claim`,
      '{"arguments":{"amount":"500","ratio":1.50,"big":9007199254740993}}',
      s.key('agent'),
    );
    expect(claim.status).toBe(200);
    const replay = await s.call('POST', '/v1/simulations', {
      key: s.key('developer'),
      body: { document: { id: 'policies/refunds.policy.json' }, calls: { recorded: { agent: 'support-bot' } } },
    });
    expect(replay.status).toBe(200);
    expect(replay.text).not.toContain('"status":"differed"');
  });
});

describe('rule sheets compare JSON numbers as written', () => {
  const check = async (call: string) => {
    const raw = `{"rules":{"sheet":${JSON.stringify(GOVERNED_SHEET)}},"catalogue":${JSON.stringify(SHOP_CATALOGUE)},"call":${call}}`;
    const r = await postRaw('/v1/rules/check', raw, s.key('developer'));
    expect(r.status).toBe(200);
    return r.json;
  };

  it.each([
    ['200.0000000000000001', 'refuse'],
    ['200.0', 'allow'],
    ['2E2', 'allow'],
    ['200.01', 'refuse'],
    ['200', 'allow'],
  ])('amount %s under when: {amount_over: 200}: %s', async (amount, verdict) => {
    expect((await check(`{"tool":"refund_card","arguments":{"amount":${amount}}}`)).verdict).toBe(verdict);
  });

  it.each([
    ['2.9999999999999999', 'refuse'],
    ['3.0', 'allow'],
    ['3', 'allow'],
  ])('in_stock %s lets quantity 3 pass at_most from check_stock.in_stock: %s', async (stock, verdict) => {
    const call = `{"tool":"charge_card","arguments":{"quantity":3},"confirmed":true,"history":[{"tool":"check_stock","arguments":{"sku":"A1"},"result":{"in_stock":${stock}}}]}`;
    expect((await check(call)).verdict).toBe(verdict);
  });
});

describe('a rule set validated on a call with JSON numbers', () => {
  it.each(['100.0000000000000001', '12.0', '1E2'])(
    'fails on an amount of %s: the refunds policy reads it as INVALID_AMOUNT',
    async (amount) => {
      const r = await postRaw(
        `/v1/rulesets/${encodeURIComponent('rulesets/support.ruleset.json')}/validate`,
        `{"call":{"tool":"issue_refund","arguments":{"amount":${amount}}}}`,
        s.key('viewer'),
      );
      expect(r.status).toBe(200);
      expect(r.json.verdict).toBe('fail');
      expect(r.json.results[0]).toMatchObject({ rule_id: 'policies/refunds.policy.json', decision: 'deny', code: 'INVALID_AMOUNT' });
    },
  );

  it('passes on 12', async () => {
    const r = await postRaw(
      `/v1/rulesets/${encodeURIComponent('rulesets/support.ruleset.json')}/validate`,
      '{"call":{"tool":"issue_refund","arguments":{"amount":12}}}',
      s.key('viewer'),
    );
    expect(r.json.verdict).toBe('pass');
  });
});
