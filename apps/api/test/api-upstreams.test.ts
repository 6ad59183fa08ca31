// The upstreams document (mcp/servers.yaml) through the document routes: owners and admins only, refused at
// its line when it holds a secret, and a catalogue's upstream mapping checked against its servers.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postEdit, startServer, type TestServer } from './server-harness.ts';

const UPSTREAMS = 'servers:\n  - name: files\n    stdio: {command: node, args: [files.js], env: [FILES_TOKEN]}\n';

let server: TestServer;

beforeEach(async () => {
  server = await startServer();
});

afterEach(async () => {
  await server.stop();
});

describe('mcp/servers.yaml', () => {
  it('is written by an owner or admin, never by a developer', async () => {
    const refused = await postEdit(server, 'mcp/servers.yaml', server.key('developer'), { content: UPSTREAMS, reason: 'add files' });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('ROLE_REQUIRED');
    const applied = await postEdit(server, 'mcp/servers.yaml', server.key('admin'), { content: UPSTREAMS, reason: 'add files' });
    expect(applied.status, applied.text).toBe(201);
    expect(applied.json.impact).toMatchObject({ widens_security: true });
    const listed = await server.call('GET', '/v1/documents', { key: server.key('viewer') });
    expect(listed.json.documents.find((d: { id: string }) => d.id === 'mcp/servers.yaml')).toMatchObject({ kind: 'upstreams' });
  });

  it('refuses a secret value where an environment name belongs, at its line', async () => {
    const secret = 'servers:\n  - name: files\n    stdio:\n      command: node\n      env: ["sk-live-123"]\n';
    const res = await postEdit(server, 'mcp/servers.yaml', server.key('owner'), { content: secret, reason: 'oops' });
    expect(res.status).toBe(422);
    expect(res.json.reasons).toMatchObject([{ code: 'INVALID_ENV_NAME', path: '/servers/0/stdio/env/0', line: 5 }]);
  });

  it('checks a catalogue tool’s upstream server against the running upstreams document', async () => {
    await postEdit(server, 'mcp/servers.yaml', server.key('owner'), { content: UPSTREAMS, reason: 'add files' });
    const current = await server.call('GET', '/v1/documents/catalogue.yaml', { key: server.key('owner') });
    const mapped = (server: string) =>
      `${current.json.text}  - { name: read_file, action: orders.read_file, kind: read, upstream: { server: ${server}, tool: read_text_file } }\n`;
    const unknown = await postEdit(server, 'catalogue.yaml', server.key('owner'), { content: mapped('search'), reason: 'map' });
    expect(unknown.status).toBe(422);
    expect(unknown.json.reasons).toMatchObject([{ code: 'UNKNOWN_UPSTREAM', path: '/tools/6/upstream/server' }]);
    const known = await postEdit(server, 'catalogue.yaml', server.key('owner'), { content: mapped('files'), reason: 'map' });
    expect(known.status, known.text).toBe(201);
  });

  it('refuses a developer’s catalogue edit that maps a tool to an upstream, or remaps it', async () => {
    await postEdit(server, 'mcp/servers.yaml', server.key('owner'), { content: UPSTREAMS, reason: 'add files' });
    const current = (await server.call('GET', '/v1/documents/catalogue.yaml', { key: server.key('owner') })).json.text as string;
    const mapped = current.replace(
      '{ name: read_order, action: orders.read, kind: read }',
      '{ name: read_order, action: orders.read, kind: read, upstream: { server: files, tool: delete_everything } }',
    );
    expect(mapped).not.toBe(current);
    const refused = await postEdit(server, 'catalogue.yaml', server.key('developer'), { content: mapped, reason: 'remap' });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toMatchObject({ code: 'BINDING_CHANGE_FORBIDDEN', details: { tools: ['read_order'] } });
    const byAdmin = await postEdit(server, 'catalogue.yaml', server.key('admin'), { content: mapped, reason: 'map' });
    expect(byAdmin.status, byAdmin.text).toBe(201);
  });
});
