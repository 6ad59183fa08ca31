// The first run's stripping, in the browser: whatever a configuration holds, the text sent names variables and
// holds none of the pasted values of env and headers; everything else reads back as pasted.
import { readJsonText } from '@tollgate/engine/source';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readClientConfigText, withVariableNames } from './strip-values.ts';

const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,11}$/);
// A secret long enough that it cannot be part of the configuration's other text by chance.
const secret = fc.string({ minLength: 12, maxLength: 40 }).map((s) => `secret:${s}`);
const stdio = fc.record({
  command: fc.constantFrom('npx', 'node', 'uvx'),
  args: fc.array(fc.stringMatching(/^[a-z/-]{1,10}$/), { maxLength: 3 }),
  env: fc.dictionary(name, secret, { maxKeys: 4 }),
});
const http = fc.record({
  type: fc.constant('http'),
  url: fc.constant('https://mcp.example.com/mcp'),
  headers: fc.dictionary(name, secret, { maxKeys: 3 }),
});
const config = fc.record({
  mcpServers: fc.dictionary(fc.stringMatching(/^[A-Za-z][A-Za-z0-9 -]{0,9}$/), fc.oneof(stdio, http), { minKeys: 1, maxKeys: 4 }),
});

function secretsOf(value: { mcpServers: Record<string, Record<string, unknown>> }): string[] {
  return Object.values(value.mcpServers).flatMap((s) => [
    ...Object.values((s.env ?? {}) as Record<string, string>),
    ...Object.values((s.headers ?? {}) as Record<string, string>),
  ]);
}

/** A header written as a reference to the client's own variable. */
const REFERENCE = ['$', '{SEARCH_KEY}'].join('');

describe('stripping a client configuration', () => {
  it('lists every value of env and headers, and sends none of them', () => {
    fc.assert(
      fc.property(config, (value) => {
        const read = readClientConfigText(JSON.stringify(value, null, 2));
        expect(read.ok).toBe(true);
        if (!read.ok) return;
        expect(read.fields).toHaveLength(secretsOf(value).length);
        const sent = withVariableNames(read.value, read.fields, {});
        for (const s of secretsOf(value)) expect(sent).not.toContain(JSON.stringify(s).slice(1, -1));
        const back = readJsonText(sent);
        expect(back.ok).toBe(true);
        if (!back.ok) return;
        // Everything but the values is as pasted; each value is now its field's suggested name.
        const expected = structuredClone(value) as unknown as { mcpServers: Record<string, Record<string, Record<string, string>>> };
        for (const f of read.fields) {
          const map = expected.mcpServers[f.server]?.[f.member];
          if (map) map[f.field] = f.suggested;
        }
        expect(back.value).toEqual(expected);
      }),
    );
  });

  it('offers an env member its own name, a header the variable it refers to or a name of its own, and sends the names given', () => {
    const text = JSON.stringify({
      mcpServers: {
        files: { command: 'npx', env: { FILES_TOKEN: 'ghp_123' } },
        Search: { type: 'http', url: 'https://s.example/mcp', headers: { Authorization: 'Bearer abc', 'X-Key': REFERENCE } },
      },
    });
    const read = readClientConfigText(text);
    if (!read.ok) throw new Error(read.problem);
    expect(read.fields.map((f) => [f.path, f.suggested, f.fixed])).toEqual([
      ['/mcpServers/files/env/FILES_TOKEN', 'FILES_TOKEN', true],
      ['/mcpServers/Search/headers/Authorization', 'SEARCH_AUTHORIZATION', false],
      ['/mcpServers/Search/headers/X-Key', 'SEARCH_KEY', false],
    ]);
    const sent = withVariableNames(read.value, read.fields, { '/mcpServers/Search/headers/Authorization': ' SEARCH_BEARER ' });
    expect(sent).toContain('"Authorization":"SEARCH_BEARER"');
    expect(sent).not.toContain('ghp_123');
    expect(sent).not.toContain('Bearer abc');
  });

  it('refuses what is not a configuration, with the reader’s code and place', () => {
    expect(readClientConfigText('{"mcpServers": {"a": ')).toMatchObject({ ok: false, problem: expect.stringContaining('line 1') });
    expect(readClientConfigText('{"a": 1, "a": 2}')).toMatchObject({ ok: false, problem: expect.stringContaining('DUPLICATE_MEMBER') });
    expect(readClientConfigText('{"servers": {}}')).toMatchObject({ ok: false, problem: expect.stringContaining('mcpServers') });
    // An env that is not an object of names and values is refused, so no value in it is ever sent.
    expect(readClientConfigText('{"mcpServers": {"a": {"command": "x", "env": ["TOKEN=s3cret"]}}}')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('a’s env is not an object'),
    });
  });
});
