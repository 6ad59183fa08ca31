// Differential: the gate's hand-written request checks (call-request.ts) against zod running the route's
// own schemas (gate.ts's callRoute, as /v1/openapi.json describes it): the same verdict and the same issues
// (path, code, message, in order) on generated JSON bodies and agent names, and so the same error bodies.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agentNameIssues, callBodyIssues, MAX_ARGUMENTS_DEPTH } from '../src/server/call-request.ts';
import { validationError } from '../src/server/openapi.ts';
import { callRoute } from '../src/server/routes/gate.ts';

const bodySchema = callRoute.request.body.content['application/json'].schema;
const paramSchema = callRoute.request.params;

// A refinement's issue carries its own code in params, as the router's hook answers it (openapi.ts).
type ZodIssueSeen = { path: PropertyKey[]; code: string; message: string; params?: { code?: unknown } };
const zodIssues = (result: { success: boolean; error?: { issues: ZodIssueSeen[] } }) =>
  result.success
    ? undefined
    : result.error?.issues.map((i) => ({
        path: i.path,
        code: i.code === 'custom' && typeof i.params?.code === 'string' ? i.params.code : i.code,
        message: i.message,
      }));

// Strings near the limits, in ASCII and in astral characters (two UTF-16 units each).
const text = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.constantFrom('', 'issue_refund', 'x'.repeat(128), 'x'.repeat(129), 's'.repeat(256), 's'.repeat(257)),
  fc.integer({ min: 60, max: 260 }).map((n) => '😀'.repeat(n)),
  fc.integer({ min: 120, max: 260 }).map((n) => `${'😀'.repeat(n >> 1)}${'x'.repeat(n & 1)}`),
);
const json = fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
// Values with a length that is not a string's: zod's length checks run on them too.
const lengthy = fc.oneof(
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.integer({ min: 120, max: 300 }).map((n) => Array.from({ length: n }, () => 0)),
  fc.record({ length: fc.oneof(json, fc.integer({ min: -2, max: 300 })) }),
);
const member = fc.oneof(text, json, lengthy, fc.boolean(), fc.dictionary(fc.string({ maxLength: 3 }), json, { maxKeys: 3 }));
const body = fc.oneof(
  json,
  fc.record(
    {
      tool: fc.oneof(text, member),
      arguments: fc.oneof(fc.dictionary(fc.string({ maxLength: 5 }), json, { maxKeys: 3 }), member),
      session: fc.oneof(text, member),
      contexts: fc.oneof(fc.dictionary(fc.string({ maxLength: 5 }), json, { maxKeys: 2 }), member),
      confirmed: fc.oneof(fc.boolean(), member),
      extra: member,
      'a/b~"c': member,
      __proto__: member,
      constructor: member,
    },
    { requiredKeys: [] },
  ),
);

describe('the gate request checks agree with zod', () => {
  it('on generated bodies', () => {
    fc.assert(
      fc.property(body, (value) => {
        // JSON.parse gives a "__proto__" key as an own member, as a request body would.
        const parsed = JSON.parse(JSON.stringify(value) ?? 'null') as unknown;
        const mine = callBodyIssues(parsed);
        let theirs: ReturnType<typeof zodIssues>;
        try {
          theirs = zodIssues(bodySchema.safeParse(parsed));
        } catch {
          // zod throws on a length no comparison can read ({"length": {"toString": {}}}); the gate answers the type.
          expect(mine?.some((i) => i.code === 'invalid_type')).toBe(true);
          return;
        }
        expect(mine).toEqual(theirs);
        if (mine) expect(validationError(mine)).toEqual(validationError(theirs ?? []));
      }),
      { numRuns: 3000 },
    );
  });

  it('on generated agent names', () => {
    fc.assert(
      fc.property(text, (name) => {
        expect(agentNameIssues(name)).toEqual(zodIssues(paramSchema.safeParse({ agent: name })));
      }),
      { numRuns: 2000 },
    );
  });

  it('answers a length no comparison can read with the type, not a thrown error', () => {
    const parsed = JSON.parse('{"tool": {"length": {"toString": {}}}, "arguments": {}}') as unknown;
    expect(callBodyIssues(parsed)).toEqual([expect.objectContaining({ path: ['tool'], code: 'invalid_type' })]);
  });

  it('on bodies that matter', () => {
    const cases: unknown[] = [
      {},
      [],
      null,
      0,
      'call',
      { tool: 'issue_refund', arguments: {} },
      { tool: 'issue_refund', arguments: {}, session: 's', contexts: {}, confirmed: false },
      JSON.parse('{"tool":"t","arguments":{},"__proto__":{}}'),
      JSON.parse('{"tool":"t","arguments":{"__proto__":{"a":1}}}'),
      JSON.parse('{"tool":1e999,"arguments":{},"session":-1e999}'),
      { tool: 'x'.repeat(129), arguments: [], session: '', contexts: [], confirmed: null, b: 1, a: 2 },
      { tool: '😀'.repeat(128), arguments: {} },
      { tool: '😀'.repeat(129), arguments: {} },
    ];
    for (const value of cases) expect(callBodyIssues(value), JSON.stringify(value)).toEqual(zodIssues(bodySchema.safeParse(value)));
  });
});

describe('the one check zod does not share', () => {
  const nested = (levels: number): unknown => (levels === 0 ? 'leaf' : { a: [nested(levels - 1)] });
  it(`refuses arguments nested more than ${MAX_ARGUMENTS_DEPTH} levels, naming where`, () => {
    // {a: [...]} is two levels a step: the arguments object and 31 steps are 63 levels, 32 steps 65.
    expect(callBodyIssues({ tool: 't', arguments: { x: nested(31) } })).toBeUndefined();
    const issues = callBodyIssues({ tool: 't', arguments: { x: nested(32) } });
    const path = ['arguments', 'x', ...Array.from({ length: 31 }, () => ['a', 0]).flat(), 'a'];
    expect(issues).toEqual([{ path, code: 'too_deep', message: 'Too deep: arguments nest at most 64 levels' }]);
    expect(validationError(issues ?? []).error.message).toBe(`/${path.join('/')}: Too deep: arguments nest at most 64 levels`);
  });
});
