// When the shared database stops answering, the gate fails closed (docs/deploy.md, "When the database is
// unreachable"): every call is answered 503 DATABASE_UNAVAILABLE, never allowed, and once the database answers
// again the same node decides again. The database is cut for real: the node reaches PostgreSQL through a TCP
// relay on loopback that the test closes, cutting every open connection.

import type { AddressInfo } from 'node:net';
import { connect, createServer, type Server, type Socket } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_UNREACHABLE, TEST_DATABASE_URL, type TestSchema } from '../../../packages/store/test/postgres-fixture.ts';
import type { AppContext } from '../src/server/context.ts';
import { isDatabaseUnavailable } from '../src/server/state/unavailable.ts';
import { migratedSchema, startPostgresServer } from './postgres-harness.ts';
import { agentKey, type TestServer } from './server-harness.ts';

/** A relay from a loopback port to the test database that can be cut (every connection ended) and opened again. */
class Relay {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;
  constructor(private readonly target: { host: string; port: number }) {}
  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', () => resolve()));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe.skipIf(POSTGRES_UNREACHABLE !== undefined)(
  `a node whose database stops answering${POSTGRES_UNREACHABLE ? ` (skipped: ${POSTGRES_UNREACHABLE})` : ''}`,
  () => {
    let schema: TestSchema;
    let relay: Relay;
    let server: TestServer<AppContext>;

    beforeAll(async () => {
      schema = await migratedSchema('unavailable');
      const target = new URL(TEST_DATABASE_URL);
      relay = new Relay({ host: target.hostname, port: Number(target.port || 5432) });
      await relay.open();
      const through = new URL(schema.url);
      through.hostname = '127.0.0.1';
      through.port = String(relay.port);
      server = await startPostgresServer(through.toString());
    });
    afterAll(async () => {
      await relay?.cut();
      await server?.stop().catch(() => {});
      await schema?.drop();
    });

    const readOrder = { tool: 'read_order', arguments: { order_id: 'o-1' } };

    it('denies every call with DATABASE_UNAVAILABLE while it is cut, and decides again once it answers', async () => {
      const agent = agentKey(server, 'support-bot');
      const before = await server.call('POST', '/v1/agents/support-bot/calls', { key: agent, body: readOrder });
      expect(before.status, before.text).toBe(200);
      expect(before.json.decision).toBe('allow');

      await relay.cut();
      // Several calls at once and one after another: none is allowed, each says why, none is a 500.
      const during = await Promise.all(
        Array.from({ length: 6 }, () => server.call('POST', '/v1/agents/support-bot/calls', { key: agent, body: readOrder })),
      );
      for (const r of during) {
        expect(r.status, r.text).toBe(503);
        expect(r.json.error.code).toBe('DATABASE_UNAVAILABLE');
        expect(r.text).not.toContain('"allow"');
      }
      const approvals = await server.call('GET', '/v1/approvals', { key: server.key('owner') });
      expect(approvals.status).toBe(503);
      expect(approvals.json.error.code).toBe('DATABASE_UNAVAILABLE');

      await relay.open();
      let after: { status: number; json: { decision?: string } } | undefined;
      for (let i = 0; i < 50; i++) {
        after = await server.call('POST', '/v1/agents/support-bot/calls', { key: agent, body: readOrder });
        if (after.status === 200) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(after?.status).toBe(200);
      expect(after?.json.decision).toBe('allow');
    });
  },
);

describe('isDatabaseUnavailable', () => {
  it('reads the driver’s connection failures as unavailable and a failed statement as not', () => {
    const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });
    for (const e of [
      coded('ECONNREFUSED'),
      coded('ECONNRESET'),
      coded('57P01'),
      coded('08006'),
      coded('53300'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      Object.assign(new Error('all addresses'), { errors: [coded('ECONNREFUSED'), coded('ECONNREFUSED')] }),
    ]) {
      expect(isDatabaseUnavailable(e), e.message).toBe(true);
    }
    for (const e of [coded('23505'), coded('42P01'), coded('40001'), new Error('syntax error'), 'ECONNREFUSED', undefined]) {
      expect(isDatabaseUnavailable(e)).toBe(false);
    }
  });

  it('never reads an arbitrary SQLSTATE outside classes 08, 57P0x and 53300 as unavailable', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9A-Z]{5}$/), (state) => {
        const expected = /^08/.test(state) || /^57P0[1-4]$/.test(state) || state === '53300';
        expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code: state }))).toBe(expected);
      }),
    );
  });
});
