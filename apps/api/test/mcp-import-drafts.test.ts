// What `tollgate mcp import` makes of a client's configuration and of the tools it lists, in-process: names
// the upstreams reader accepts, variables instead of values, every entry it does not take reported with a code,
// and drafts the engine's own readers accept (docs/mcp.md, "Starting from what you have").
import { readCatalogue, readUpstreams, type Upstream, validatePolicy } from '@tollgate/engine';
import { describe, expect, it } from 'vitest';
import { readClientConfig } from '../src/server/mcp/import-config.ts';
import { catalogueText, draftTools, policyText, upstreamsText } from '../src/server/mcp/import-texts.ts';

const RUNNING: Upstream[] = [
  { name: 'files', transport: 'stdio', command: 'npx', args: ['files'], env: ['FILES_TOKEN'] },
  { name: 'search', transport: 'http', url: 'https://search.example.com/mcp', headers: { Authorization: 'SEARCH_KEY' } },
];

describe('reading a client configuration', () => {
  it('names each server as the upstreams reader accepts, numbering a name taken by another server', () => {
    const config = readClientConfig(
      {
        mcpServers: {
          'My Files!': { command: 'node', args: ['a.js'] },
          files: { command: 'node', args: ['b.js'] },
          '--': { command: 'node' },
        },
      },
      RUNNING,
      {},
    );
    expect(config.servers.map((s) => s.upstream.name)).toEqual(['my-files', 'files-2', 'server']);
    expect(config.problems.map((p) => [p.code, p.path])).toEqual([
      ['SERVER_RENAMED', '/mcpServers/My Files!'],
      ['SERVER_RENAMED', '/mcpServers/files'],
      ['SERVER_RENAMED', '/mcpServers/--'],
    ]);
    expect(config.problems[1]?.message).toContain('has a server of that name already');
  });

  it('takes a server defined as a running one for that server, with the variables it reads', () => {
    const config = readClientConfig(
      {
        mcpServers: {
          f: { command: 'npx', args: ['files'], env: { FILES_TOKEN: 'x' } },
          s: { type: 'http', url: 'https://search.example.com/mcp', headers: { Authorization: 'Bearer y' } },
        },
      },
      RUNNING,
      {},
    );
    expect(config.servers.map((s) => [s.upstream.name, s.existing])).toEqual([
      ['files', true],
      ['search', true],
    ]);
    expect(config.servers[1]?.upstream).toMatchObject({ headers: { Authorization: 'SEARCH_KEY' } });
    expect(config.servers[1]?.values).toEqual({ SEARCH_KEY: 'Bearer y' });
  });

  it('names variables instead of values: env names, headers written as a variable reference, invented header variables numbered apart', () => {
    const config = readClientConfig(
      {
        mcpServers: {
          a: { command: 'node', env: { TOKEN: 'one' } },
          b: { command: 'node', env: { TOKEN: 'two' } },
          'web-1': {
            type: 'streamable-http',
            url: 'http://127.0.0.1:1/mcp',
            // A client's own variable references, as text: the import expands them from the shell's environment.
            // biome-ignore lint/suspicious/noTemplateCurlyInString: the client's syntax, not a template
            headers: { 'X-Key': '${MY_KEY}', Authorization: `Bearer ${'$'}{MY_KEY}` },
          },
          web_1: { url: 'http://127.0.0.1:2/mcp', headers: { Authorization: 'other' } },
        },
      },
      [],
      { MY_KEY: 'from-shell' },
    );
    const [, , web, web2] = config.servers;
    expect(web?.upstream).toEqual({
      name: 'web-1',
      transport: 'http',
      url: 'http://127.0.0.1:1/mcp',
      headers: { 'X-Key': 'MY_KEY', Authorization: 'WEB_1_AUTHORIZATION' },
    });
    expect(web?.values).toEqual({ MY_KEY: 'from-shell', WEB_1_AUTHORIZATION: 'Bearer from-shell' });
    expect(web2?.upstream).toMatchObject({ headers: { Authorization: 'WEB_1_AUTHORIZATION_2' } });
    expect(config.problems.map((p) => [p.code, p.path])).toEqual([['ENV_CONFLICT', '/mcpServers/b']]);
    expect(JSON.stringify(config.servers.map((s) => s.upstream))).not.toMatch(/one|two|from-shell|Bearer|other/);
    expect(config.variables.map((v) => `${v.server} ${v.name} ${v.from}`)).toEqual([
      'a TOKEN env',
      'b TOKEN env',
      'web-1 MY_KEY header X-Key',
      'web-1 WEB_1_AUTHORIZATION header Authorization',
      'web_1 WEB_1_AUTHORIZATION_2 header Authorization',
    ]);
  });

  it('reports every entry it does not take, with a code and the entry’s path', () => {
    const config = readClientConfig(
      {
        mcpServers: {
          old: { type: 'sse', url: 'http://127.0.0.1:1/sse' },
          off: { command: 'node', disabled: true },
          neither: { args: [] },
          creds: { url: 'https://u:p@example.com/mcp' },
          badenv: { command: 'node', env: { 'NOT-A-NAME': 'x' } },
          list: 'node server.js',
          extra: { command: 'node', cwd: '/tmp', timeout: 5 },
        },
      },
      [],
      {},
    );
    expect(config.servers.map((s) => s.key)).toEqual(['extra']);
    expect(config.problems.map((p) => [p.code, p.severity, p.path])).toEqual([
      ['UNSUPPORTED_TRANSPORT', 'warning', '/mcpServers/old/type'],
      ['SERVER_DISABLED', 'warning', '/mcpServers/off'],
      ['INVALID_SERVER_ENTRY', 'error', '/mcpServers/neither'],
      ['INVALID_SERVER_ENTRY', 'error', '/mcpServers/creds/url'],
      ['INVALID_SERVER_ENTRY', 'error', '/mcpServers/badenv/env/NOT-A-NAME'],
      ['INVALID_SERVER_ENTRY', 'error', '/mcpServers/list'],
      ['UNSUPPORTED_MEMBER', 'warning', '/mcpServers/extra/cwd'],
      ['UNSUPPORTED_MEMBER', 'warning', '/mcpServers/extra/timeout'],
    ]);
  });

  it('refuses a file that is not a client configuration', () => {
    for (const value of [[], { servers: {} }, { mcpServers: [] }]) {
      expect(readClientConfig(value, [], {}).problems.map((p) => p.code)).toEqual(['NOT_CLIENT_CONFIG']);
    }
  });
});

describe('drafting from listed tools', () => {
  it('names tools and actions by the catalogue’s and the action grammar’s rules, never in the tollgate. namespace', () => {
    const problems: Parameters<typeof draftTools>[1] = [];
    const tools = draftTools(
      [
        { server: 'tollgate', path: '/mcpServers/tollgate', tools: [{ name: 'readOrder', annotations: { readOnlyHint: true } }] },
        { server: 'fs', path: '/mcpServers/fs', tools: [{ name: 'read.file' }, { name: 'read_file' }, { name: 'has space' }] },
      ],
      problems,
    );
    expect(tools).toEqual([
      { name: 'tollgate_readOrder', action: 'tollgate-upstream.read_order', kind: 'read', server: 'tollgate', tool: 'readOrder' },
      { name: 'fs_read.file', action: 'fs.read_file', kind: 'write', server: 'fs', tool: 'read.file' },
      { name: 'fs_read_file', action: 'fs.read_file-2', kind: 'write', server: 'fs', tool: 'read_file' },
    ]);
    expect(problems.map((p) => [p.code, p.path])).toEqual([['TOOL_NOT_MAPPABLE', '/mcpServers/fs']]);
    const catalogue = readCatalogue(catalogueText(tools, 'x.json'), 'yaml', { upstreams: new Set(['tollgate', 'fs']) });
    expect(catalogue.problems).toEqual([]);
  });

  it('drafts a valid deny-by-default policy, 64 actions a rule at most', () => {
    const tools = draftTools(
      [
        {
          server: 'many',
          path: '/mcpServers/many',
          tools: Array.from({ length: 70 }, (_, i) => ({ name: `t${i}`, annotations: { readOnlyHint: i < 65 } })),
        },
      ],
      [],
    );
    const policy = JSON.parse(policyText(tools));
    expect(validatePolicy(policy).errors).toEqual([]);
    expect(policy.default).toBe('deny');
    expect(policy.rules.map((r: { id: string; actions: string[] }) => [r.id, r.actions.length])).toEqual([
      ['read-only-tools', 64],
      ['read-only-tools-2', 1],
      ['other-tools-need-approval', 5],
    ]);
  });

  it('keeps the running upstreams’ text and appends the new servers to it', () => {
    const running = '# the team’s servers\nservers:\n  - name: files\n    stdio: {command: npx, args: [files], env: [FILES_TOKEN]}\n';
    const added: Upstream[] = [{ name: 'true', transport: 'stdio', command: 'node', args: ['x.js'], env: ['NULL'] }];
    const text = upstreamsText({ text: running, servers: [RUNNING[0] as Upstream] }, added, 'x.json');
    expect(text.startsWith(running)).toBe(true);
    const read = readUpstreams(text);
    expect(read.ok && read.upstreams.servers).toEqual([RUNNING[0], ...added]);
  });
});
