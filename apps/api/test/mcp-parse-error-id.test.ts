// A parse error answers the request's id where it can be read, else null (JSON-RPC 2.0; docs/mcp.md, "One read
// per message"): generated messages with a fault after, before or inside their id, read by readExactMessage, sent
// to /mcp on loopback and written to `tollgate mcp` (a child process).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExactArguments, readExactMessage } from '../src/server/mcp/exact-stdio-transport.ts';
import { agentKey, REPO_ROOT, startServer, type TestServer } from './server-harness.ts';

const BIN = join(REPO_ROOT, 'apps/api/bin/tollgate.cjs');

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
}, 30_000);
afterAll(async () => {
  await s?.stop();
});

const ids = fc.oneof(fc.string({ maxLength: 12 }), fc.integer({ min: -1e9, max: 1e9 }));
/** What follows a whole `"id": ...` member and makes the text no message the reader accepts. */
const faultsAfter = fc.constantFrom(
  ', "method": "tools/call", "params": {"name": "read_order", "arguments": {"a": 1, "a": 2}}}',
  ', "method": "tools/call", "params": {"name": "read_order", "arguments": {"a": tru}}}',
  ', "method": "tools/call", "params": {"name": "read_order"',
  ', "method": "tools/call" "params": {}}',
  `, "method": "tools/call", "params": ${'['.repeat(80)}${']'.repeat(80)}}`,
  '}}',
);
/** Faults that leave no id: before it, inside it, or the id named twice. */
const noId = fc.constantFrom(
  '{"jsonrpc": "2.0", "method": "tools/list", "params": {"a": tru}, "id": 3}',
  '{"jsonrpc": "2.0", "id": 3x, "method": "tools/list"}',
  '{"jsonrpc": "2.0", "id": "three, "method": "tools/list"}',
  '{"jsonrpc": "2.0", "id": 3, "id": 4, "method": "tools/list"}',
  '{"jsonrpc": "2.0", "id": {"n": 3}, "method": "tools/list", "params": {"a": 1, "a": 2}}',
  '[{"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"a": 1, "a": 2}}]',
  'not json',
);
const withId = (id: string | number, fault: string) => `{"jsonrpc": "2.0", "id": ${JSON.stringify(id)}${fault}`;

async function postMcp(body: string): Promise<{ status: number; json: { id: unknown; error: { code: number; message: string } } }> {
  const res = await fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${agentKey(s, 'support-bot')}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body,
  });
  return { status: res.status, json: (await res.json()) as never };
}

describe('the id of a refused message', () => {
  it('is the id read whole before the fault, as the SDK names it (generated)', () => {
    fc.assert(
      fc.property(ids, faultsAfter, (id, fault) => {
        const read = readExactMessage(withId(id, fault), new ExactArguments());
        expect(read.ok).toBe(false);
        if (!read.ok) expect(read.id).toBe(id);
      }),
    );
    const read = readExactMessage('{"jsonrpc": "2.0", "id": 1.0, "method": "x", "params": {"a": 1, "a": 2}}', new ExactArguments());
    expect(read.ok === false && read.id).toBe(1);
  });

  it('is null when no single id can be read', () => {
    fc.assert(
      fc.property(noId, (text) => {
        const read = readExactMessage(text, new ExactArguments());
        expect(read.ok).toBe(false);
        if (!read.ok) expect(read.id).toBeNull();
      }),
    );
  });

  it('is answered at /mcp, with status 400 and the reader’s code (generated)', async () => {
    await fc.assert(
      fc.asyncProperty(ids, faultsAfter, async (id, fault) => {
        const { status, json } = await postMcp(withId(id, fault));
        expect(status).toBe(400);
        expect(json).toMatchObject({ id, error: { code: -32700 } });
      }),
      { numRuns: 30 },
    );
    for (const text of ['{"jsonrpc": "2.0", "id": 3, "id": 4, "method": "tools/list"}', '{"jsonrpc": "2.0", "id": 3x}']) {
      expect((await postMcp(text)).json.id).toBeNull();
    }
    // A body read whole but refused for want of a session answers its id too.
    const noSession = await postMcp('{"jsonrpc": "2.0", "id": "list-1", "method": "tools/list"}');
    expect(noSession.status).toBe(400);
    expect(noSession.json).toMatchObject({ id: 'list-1', error: { code: -32000 } });
  }, 30_000);

  it('is answered over stdio by tollgate mcp, each line in turn', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp', '--agent', 'support-bot', '--data', s.dataDir], {
      env: { PATH: process.env.PATH ?? '', TOLLGATE_AGENT_KEY: agentKey(s, 'support-bot') },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const lines = [
      [withId(41, ', "method": "tools/call", "params": {"name": "read_order", "arguments": {"a": 1, "a": 2}}}'), 41],
      [withId('call-42', ', "method": "tools/call", "params": {"name": "read_order"'), 'call-42'],
      [withId(43, ` , "method": "tools/list", "params": ${'['.repeat(80)}${']'.repeat(80)}}`), 43],
      ['{"jsonrpc": "2.0", "id": 44, "id": 45, "method": "tools/list"}', null],
      ['{"jsonrpc": "2.0", "method": "tools/list", "id": 46x}', null],
    ] as const;
    const answers: { id: unknown; error: { code: number } }[] = [];
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      for (let end = out.indexOf('\n'); end !== -1; end = out.indexOf('\n')) {
        answers.push(JSON.parse(out.slice(0, end)));
        out = out.slice(end + 1);
      }
    });
    try {
      for (const [line] of lines) child.stdin.write(`${line}\n`);
      await expect.poll(() => answers.length, { timeout: 15_000 }).toBe(lines.length);
      expect(answers.map((a) => a.id)).toEqual(lines.map(([, id]) => id));
      for (const answer of answers) expect(answer.error.code).toBe(-32700);
    } finally {
      child.kill();
    }
  }, 30_000);
});
