// The upstreams format (mcp/servers.yaml): both transports, environment names only, each refusal at its line.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCatalogue } from '../rulebook/catalogue.ts';
import { analyzeUpstreamsImpact } from './impact-upstreams.ts';
import { documentKindOf } from './kinds.ts';
import { readUpstreams } from './upstreams.ts';
import { validateDocument } from './validate-document.ts';

const UPSTREAMS = `servers:
  - name: files
    stdio:
      command: node
      args: [files.js, /tmp/work]
      env: [FILES_TOKEN]
  - name: search
    http:
      url: https://search.example.com/mcp
      headers: {Authorization: SEARCH_AUTH}
`;

function brief(text: string) {
  const r = readUpstreams(text);
  if (r.ok) throw new Error('expected problems');
  return r.problems.map((p) => ({ code: p.code, path: p.path, line: p.line }));
}

describe('readUpstreams', () => {
  it('reads both transports', () => {
    expect(readUpstreams(UPSTREAMS)).toEqual({
      ok: true,
      problems: [],
      upstreams: {
        servers: [
          { name: 'files', transport: 'stdio', command: 'node', args: ['files.js', '/tmp/work'], env: ['FILES_TOKEN'] },
          { name: 'search', transport: 'http', url: 'https://search.example.com/mcp', headers: { Authorization: 'SEARCH_AUTH' } },
        ],
      },
    });
    expect(documentKindOf('mcp/servers.yaml')).toBe('upstreams');
    expect(validateDocument('mcp/servers.yaml', UPSTREAMS).problems).toEqual([]);
  });

  it('refuses a secret written where an environment name belongs, at its line', () => {
    const text = 'servers:\n  - name: files\n    stdio:\n      command: node\n      env: [ghp_abc-123]\n';
    expect(brief(text)).toEqual([{ code: 'INVALID_ENV_NAME', path: '/servers/0/stdio/env/0', line: 5 }]);
    const header = 'servers:\n  - name: s\n    http:\n      url: https://x.example/mcp\n      headers: {Authorization: "Bearer abc"}\n';
    expect(brief(header)).toEqual([{ code: 'INVALID_ENV_NAME', path: '/servers/0/http/headers/Authorization', line: 5 }]);
  });

  it('refuses credentials in a URL, another scheme, both transports, a name twice and unknown members', () => {
    expect(brief('servers:\n  - name: s\n    http: {url: "https://u:p@x.example/mcp"}\n')).toEqual([
      { code: 'INVALID_VALUE', path: '/servers/0/http/url', line: 3 },
    ]);
    expect(brief('servers:\n  - name: s\n    http: {url: "file:///etc/passwd"}\n')[0]?.code).toBe('INVALID_VALUE');
    expect(brief('servers:\n  - name: s\n    stdio: {command: a}\n    http: {url: "https://x.example"}\n')).toEqual([
      { code: 'INVALID_VALUE', path: '/servers/0', line: 2 },
    ]);
    expect(brief('servers:\n  - {name: s, stdio: {command: a}}\n  - {name: s, stdio: {command: b}}\n')).toEqual([
      { code: 'DUPLICATE_VALUE', path: '/servers/1', line: 3 },
    ]);
    expect(brief('servers:\n  - {name: s, stdio: {command: a, cwd: /}}\n')).toEqual([
      { code: 'UNKNOWN_MEMBER', path: '/servers/0/stdio/cwd', line: 2 },
    ]);
    expect(brief('servers: []\nextra: 1\n')[0]).toMatchObject({ code: 'UNKNOWN_MEMBER', path: '/extra', line: 2 });
  });

  it('bounds the number of servers', () => {
    const many = Array.from({ length: 65 }, (_, i) => `  - {name: s${i}, stdio: {command: a}}`).join('\n');
    expect(brief(`servers:\n${many}\n`).map((p) => p.code)).toEqual(['LIST_TOO_LONG']);
  });

  it('never accepts an environment entry that is not a name', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 20 }), (value) => {
        fc.pre(!/^[A-Za-z_][A-Za-z0-9_]*$/.test(value));
        const text = `servers:\n  - name: s\n    stdio:\n      command: a\n      env: [${JSON.stringify(value)}]\n`;
        const r = readUpstreams(text);
        return !r.ok;
      }),
    );
  });
});

describe('analyzeUpstreamsImpact', () => {
  it('flags a server added or reached another way, and nothing for a removal', () => {
    expect(analyzeUpstreamsImpact(undefined, UPSTREAMS).widenedSubjects).toEqual(['servers/files added', 'servers/search added']);
    const moved = UPSTREAMS.replace('https://search.example.com/mcp', 'https://other.example/mcp').replace(
      '[FILES_TOKEN]',
      '[FILES_TOKEN, HOME]',
    );
    expect(analyzeUpstreamsImpact(UPSTREAMS, moved).widenedSubjects).toEqual([
      'servers/files env + HOME',
      'servers/search url https://search.example.com/mcp -> https://other.example/mcp',
    ]);
    expect(analyzeUpstreamsImpact(UPSTREAMS, 'servers: []\n').widensSecurity).toBe(false);
  });
});

describe('a catalogue tool mapped to an upstream tool', () => {
  const catalogue =
    'tools:\n  - name: read_file\n    action: files.read\n    kind: read\n    upstream: {server: files, tool: read_text_file}\n';

  it('reads the mapping, and checks the server where the upstreams are known', () => {
    const r = readCatalogue(catalogue, 'yaml');
    expect(r.ok && r.catalogue.tools[0]?.upstream).toEqual({ server: 'files', tool: 'read_text_file' });
    expect(readCatalogue(catalogue, 'yaml', { upstreams: new Set(['files']) }).ok).toBe(true);
    const unknown = validateDocument('catalogue.yaml', catalogue, { upstreams: new Set(['search']) }).problems;
    expect(unknown.map((p) => ({ code: p.code, path: p.path, line: p.line }))).toEqual([
      { code: 'UNKNOWN_UPSTREAM', path: '/tools/0/upstream/server', line: 5 },
    ]);
  });

  it('refuses a mapping without a tool or with unknown members', () => {
    const r = readCatalogue('tools:\n  - {name: a, action: a.b, kind: read, upstream: {server: files, verb: x}}\n', 'yaml');
    expect(r.ok ? [] : r.problems.map((p) => p.code).sort()).toEqual(['MISSING_MEMBER', 'UNKNOWN_MEMBER']);
  });
});
