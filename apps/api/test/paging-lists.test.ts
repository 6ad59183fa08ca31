// Paging of GET /v1/approvals and GET /v1/decisions over real HTTP (docs/api.md, "Preconditions and
// paging"): walked page by page with next_cursor, a list reaches every item exactly once, newest first,
// also while new items arrive between pages and when many share one created_at; a cursor the server did
// not give is 400 INVALID_CURSOR. The rows are written through the server's own state store (recordDecision, as
// the gate writes a held call), on SQLite or PostgreSQL as the harness serves.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LooseJson, startServer, type TestServer } from './server-harness.ts';

let s: TestServer;
let made = 0;
const seeded: string[] = [];

beforeAll(async () => {
  s = await startServer();
  // 1,200 held calls over 300 distinct instants: four share each created_at, so rowid breaks the ties. Eight
  // writers at once, as the gate's callers are: on PostgreSQL each is a transaction of its own.
  const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(i / 4)));
  await Promise.all(
    Array.from({ length: 8 }, async (_, writer) => {
      for (let i = writer; i < 1200; i += 8) seeded.push(await hold(at(i)));
    }),
  );
}, 60_000);
afterAll(async () => {
  await s.stop();
});

/** Records one held call and its approval request at `at`; answers the request's id. */
async function hold(at: Date): Promise<string> {
  made += 1;
  const callId = `paging-call-${made}`;
  const created = at.toISOString();
  const row = {
    call_id: callId,
    agent: 'support-bot',
    tool: 'issue_refund',
    action: 'refund.issue',
    amount: '500',
    currency: 'USD',
    decision: 'require_approval',
    rule: 'refund-review',
    code: null,
    versions: '{}',
    arguments: '{"amount":"500"}',
    arguments_digest: 'digest',
    session: null,
    created_at: created,
  };
  const id = `paging-approval-${made}`;
  const approval = {
    id,
    call_id: callId,
    agent: 'support-bot',
    tool: 'issue_refund',
    arguments_digest: 'digest',
    policy_document: 'policies/refunds.policy.json',
    policy_sequence: 1,
    rule: 'refund-review',
    description: null,
    approvers: '[]',
    status: 'pending' as const,
    expires_at: '2099-01-01T00:00:00.000Z',
    decided_by: null,
    decided_at: null,
    reason: null,
    signature: null,
    signed_content: null,
    proof: null,
    quorum: 1,
    claimed_at: null,
    created_at: created,
  };
  await s.ctx.state.recordDecision('support-bot', undefined, () => ({ row, approval }));
  return id;
}

async function page(path: string, limit: number, cursor: string | null): Promise<LooseJson> {
  const query = `limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
  const res = await s.call('GET', `${path}?${query}`, { key: s.key('owner') });
  expect(res.status, res.text).toBe(200);
  return res.json;
}

/**
 * Walks a list from its first page to its last; `between` runs after each page. Answers the ids in the
 * order the pages gave them and checks each page's shape.
 */
async function walk(path: string, field: 'approvals' | 'decisions', limit: number, between: () => unknown = () => {}): Promise<string[]> {
  const key = field === 'approvals' ? 'id' : 'call_id';
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 10_000; pages++) {
    const body = await page(path, limit, cursor);
    const items = body[field] as LooseJson[];
    expect(items.length).toBeLessThanOrEqual(limit);
    expect(body.has_more).toBe(body.next_cursor !== null);
    if (body.has_more) expect(items).toHaveLength(limit);
    ids.push(...items.map((item) => item[key] as string));
    if (!body.has_more) return ids;
    cursor = body.next_cursor;
    await between();
  }
  throw new Error('the walk did not end');
}

/** Newest first: created_at never rises along the walk. */
function expectNewestFirst(createdAt: string[]): void {
  for (let i = 1; i < createdAt.length; i++) expect((createdAt[i] as string) <= (createdAt[i - 1] as string)).toBe(true);
}

describe('approvals', () => {
  it('walked 7 at a time reach all 1,200 exactly once, newest first, while new ones arrive', async () => {
    let later = Date.UTC(2027, 0, 1);
    const arrived: string[] = [];
    const ids = await walk('/v1/approvals', 'approvals', 7, async () => {
      later += 1000;
      arrived.push(await hold(new Date(later)));
    });
    const walked = new Set(ids);
    expect(walked.size).toBe(ids.length);
    for (const id of seeded) expect(walked.has(id), id).toBe(true);
    // The ones that arrived during the walk are newer than its start: none was seen on a later page.
    for (const id of arrived) expect(walked.has(id)).toBe(false);
    const all = await page('/v1/approvals', 500, null);
    expectNewestFirst((all.approvals as LooseJson[]).map((a) => a.created_at));
  });

  it('any limit from 1 to 500 walks every request exactly once', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 500 }), async (limit) => {
        const ids = await walk('/v1/approvals', 'approvals', limit);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids.length).toBe(made);
      }),
      { numRuns: 8 },
    );
  });
});

describe('decisions', () => {
  it('walked page by page reach every decision exactly once, newest first', async () => {
    const ids = await walk('/v1/decisions', 'decisions', 97);
    expect(new Set(ids).size).toBe(ids.length);
    const walked = new Set(ids);
    for (let i = 1; i <= made; i++) expect(walked.has(`paging-call-${i}`)).toBe(true);
    const all = await page('/v1/decisions', 500, null);
    expectNewestFirst((all.decisions as LooseJson[]).map((d) => d.created_at));
  });
});

describe('a cursor the server did not give', () => {
  it('is 400 INVALID_CURSOR on both lists, whatever it holds', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ minLength: 1, maxLength: 40 }),
          fc.constantFrom(
            'e30',
            Buffer.from('["yesterday",1]').toString('base64url'),
            Buffer.from('["2026-01-01T00:00:00Z",0]').toString('base64url'),
          ),
        ),
        fc.constantFrom('/v1/approvals', '/v1/decisions'),
        async (cursor, path) => {
          const res = await s.call('GET', `${path}?cursor=${encodeURIComponent(cursor)}`, { key: s.key('owner') });
          expect(res.status, cursor).toBe(400);
          expect(res.json.error.code, cursor).toBe('INVALID_CURSOR');
        },
      ),
      { numRuns: 40 },
    );
  });
});
