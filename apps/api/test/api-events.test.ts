// GET /v1/events over a real socket: server-sent events reach a connected client; members only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEARTBEAT_MS } from '../src/server/routes/events.ts';
import { REFUNDS_POLICY_TEXT } from './rules-fixtures.ts';
import { startServer, type TestServer } from './server-harness.ts';
import { eventsOf, openEvents as openStream } from './sse-client.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

/** Opens the stream with this test's server. */
const openEvents = (key: string) => openStream(server.url, key);

describe('GET /v1/events', () => {
  it('streams events published on the hub to a connected member', async () => {
    const stream = await openEvents(server.key('viewer'));
    try {
      expect(stream.res.status).toBe(200);
      expect(stream.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      await stream.readUntil((t) => t.includes(': connected'));
      server.ctx.events.publish({ type: 'approval', id: 'a-1', status: 'approved' });
      server.ctx.events.publish({ type: 'document', id: 'policies/x.policy.json', sequence: 3 });
      const text = await stream.readUntil((t) => eventsOf(t).length >= 2);
      expect(eventsOf(text)).toEqual([
        { event: 'approval', data: { type: 'approval', id: 'a-1', status: 'approved' } },
        { event: 'document', data: { type: 'document', id: 'policies/x.policy.json', sequence: 3 } },
      ]);
    } finally {
      stream.close();
    }
  });

  it('tells every connected client of a document edit made through the API', async () => {
    const [a, b] = [await openEvents(server.key('owner')), await openEvents(server.key('approver'))];
    try {
      await a.readUntil((t) => t.includes(': connected'));
      await b.readUntil((t) => t.includes(': connected'));
      const policy = JSON.parse(REFUNDS_POLICY_TEXT);
      policy.rules[0].description = 'Reading orders is always fine.';
      const edit = await server.call('POST', `/v1/documents/${encodeURIComponent('policies/refunds.policy.json')}/edits`, {
        key: server.key('developer'),
        body: { content: `${JSON.stringify(policy, null, 2)}\n`, reason: 'describe the read rule', based_on: 1 },
      });
      expect(edit.status).toBe(201);
      for (const stream of [a, b]) {
        const text = await stream.readUntil((t) => eventsOf(t).some((e) => e.event === 'document'));
        expect(eventsOf(text)).toContainEqual({
          event: 'document',
          data: { type: 'document', id: 'policies/refunds.policy.json', sequence: 2 },
        });
      }
    } finally {
      a.close();
      b.close();
    }
  });

  it('beats every HEARTBEAT_MS on a quiet stream, so a client can tell it is still live', async () => {
    const stream = await openEvents(server.key('viewer'));
    try {
      await stream.readUntil((t) => t.includes(': connected'));
      const opened = Date.now();
      const text = await stream.readUntil((t) => t.includes(': heartbeat\n\n'), 2 * HEARTBEAT_MS);
      const waited = Date.now() - opened;
      expect(HEARTBEAT_MS).toBe(5000);
      expect(waited).toBeGreaterThan(HEARTBEAT_MS - 1000);
      // Room for a loaded machine's late timer, yet short of a second beat: the first one was not missed.
      expect(waited).toBeLessThan(HEARTBEAT_MS + 3000);
      // A comment, not an event: clients that only listen for events never see it.
      expect(text).not.toContain('event: heartbeat');
    } finally {
      stream.close();
    }
  });

  it('stops delivering to a client once it disconnects', async () => {
    const stream = await openEvents(server.key('viewer'));
    await stream.readUntil((t) => t.includes(': connected'));
    stream.close();
    // The server notices the abort and unsubscribes; publishing afterwards does not throw.
    await new Promise((r) => setTimeout(r, 50));
    expect(() => server.ctx.events.publish({ type: 'approval', id: 'a-2', status: 'denied' })).not.toThrow();
  });

  it('answers 401 without a key and 403 MEMBER_REQUIRED to an agent', async () => {
    const none = await server.call('GET', '/v1/events');
    expect(none.status).toBe(401);
    expect(none.json.error.code).toBe('MISSING_KEY');
    const agent = await server.call('GET', '/v1/events', { key: server.key('agent') });
    expect(agent.status).toBe(403);
    expect(agent.json.error.code).toBe('MEMBER_REQUIRED');
  });
});
