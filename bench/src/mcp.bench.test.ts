// The mcp suite runs: each of its three paths answers a handful of allowed calls, as the upstream answers them
// directly. Timing is the bench's (npm run bench -- mcp); nothing here reads a figure.
import { describe, expect, it } from 'vitest';
import { measureMcpPaths } from './mcp.bench.ts';

describe('measureMcpPaths', () => {
  it('times a few allowed calls on each path, the gateways answering as the upstream does', async () => {
    const { paths, sessions, notes } = await measureMcpPaths({ calls: 5, warmup: 1, rounds: 1, boundMs: 60_000, sessionCalls: 3 });
    expect(paths.map((p) => p.name)).toEqual([
      'direct: Client -> upstream (stdio)',
      'tollgate mcp (stdio) -> upstream',
      'tollgate serve /mcp (HTTP) -> upstream',
    ]);
    for (const p of paths) {
      expect(p.ms).toHaveLength(5);
      expect(p.ms.every((ms) => Number.isFinite(ms) && ms > 0)).toBe(true);
      expect(p.answer).toBe('done read {"id":"o-4"}');
    }
    // The long session: each path on connections of its own, the same answers.
    expect(sessions.map((p) => [p.name, p.ms.length, p.answer])).toEqual(paths.map((p) => [p.name, 3, 'done read {"id":"o-2"}']));
    expect(notes).toEqual([]);
  }, 60_000);
});
