// Every path of the edit seam over real HTTP (docs/documents.md, "Edits through the API"): a model's key edits
// every kind of document and each edit is held as a version that does not run until a person activates it;
// content over the document limit is a refused outcome with TOO_LARGE (a body over the transport limit 413);
// a conflicting edit carries its impact against the version that now runs.
import { compileSheet } from '@tollgate/engine';
import { DEFAULT_MAX_DOCUMENT_BYTES } from '@tollgate/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EDIT_BODY_BYTES } from '../src/server/body-limit.ts';
import { okJson, postEdit, postLarge, startServer, type TestServer } from './server-harness.ts';

let server: TestServer;
/** The key of `assistant`, an admin whose key is a model's (the `model` grant). */
let modelKey: string;
beforeAll(async () => {
  server = await startServer();
  const assistant = await server.ctx.state.createMember('assistant', 'admin');
  modelKey = await server.ctx.state.createKey({ member: assistant.id }, ['model']);
});
afterAll(async () => {
  await server.stop();
});

const path = (id: string) => `/v1/documents/${encodeURIComponent(id)}`;

async function running(id: string): Promise<{ sequence: number; text: string }> {
  const doc = await okJson(server.call('GET', path(id), { key: server.key('viewer') }));
  return { sequence: doc.version.sequence, text: doc.text };
}

/** The running text with a harmless change its format reads: a comment in YAML and Colang, a blank line after JSON. */
function touched(id: string, text: string): string {
  return id.endsWith('.json') ? `${text.trimEnd()}\n\n` : `${text}# touched by the assistant\n`;
}

describe("a model's edits", () => {
  it('are held for every kind of document, and run once a person activates them', async () => {
    const sheet = compileSheet((await running('sheets/support.rules.yaml')).text);
    if (!sheet.ok) throw new Error('the demo sheet compiles');
    const created = await postEdit(server, 'colang/support.co', server.key('owner'), {
      content: sheet.colang,
      reason: 'the sheet as Colang',
    });
    expect(created.json.status).toBe('applied');

    const ids = [
      'catalogue.yaml',
      'sheets/support.rules.yaml',
      'colang/support.co',
      'policies/refunds.policy.json',
      'policies/refunds.examples.json',
      'rulesets/support.ruleset.json',
      'agents/support-bot.agent.yaml',
      'settings.yaml',
    ];
    for (const id of ids) {
      const before = await running(id);
      const edit = await postEdit(server, id, modelKey, { content: touched(id, before.text), reason: 'tidy' });
      expect([id, edit.status, edit.json.status]).toEqual([id, 201, 'saved_not_running']);
      expect(edit.json.version).toMatchObject({ author: { kind: 'model', label: 'assistant' }, running: false });
      expect(edit.json.reasons.map((r: { code: string }) => r.code)).toContain('HELD_FOR_REVIEW');
      expect((await running(id)).sequence, id).toBe(before.sequence);
    }

    // The model cannot make its own version run, whatever its member's role; a person can.
    const id = 'policies/refunds.policy.json';
    const held = (await okJson(server.call('GET', `${path(id)}/history`, { key: server.key('viewer') }))).versions.at(-1);
    const byModel = await server.call('POST', `${path(id)}/activate`, { key: modelKey, body: { sequence: held.sequence } });
    expect([byModel.status, byModel.json.error.code]).toEqual([403, 'PERSON_REQUIRED']);
    const revert = await server.call('POST', `${path(id)}/revert`, { key: modelKey });
    expect([revert.status, revert.json.error.code]).toEqual([403, 'PERSON_REQUIRED']);
    await okJson(server.call('POST', `${path(id)}/activate`, { key: server.key('owner'), body: { sequence: held.sequence } }));
    expect(await running(id)).toMatchObject({ sequence: held.sequence });

    // Nor can it make a rule set's version run, or change whether the set runs.
    const set = 'rulesets/support.ruleset.json';
    const newest = (await okJson(server.call('GET', `${path(set)}/history`, { key: server.key('viewer') }))).versions.at(-1).sequence;
    const patch = await server.call('PATCH', `/v1/rulesets/${encodeURIComponent(set)}`, {
      key: modelKey,
      body: { active_version: newest, based_on: newest },
    });
    expect([patch.status, patch.json.error.code]).toEqual([403, 'PERSON_REQUIRED']);
  });

  it("are a person's own once the key is not a model's: the same member's other key applies", async () => {
    const assistant = server.keys.members.find((m) => m.role === 'admin');
    const key = await server.ctx.state.createKey({ member: assistant?.id as string });
    const id = 'settings.yaml';
    const edit = await postEdit(server, id, key, { content: touched(id, (await running(id)).text), reason: 'tidy' });
    expect([edit.status, edit.json.status, edit.json.version.author.kind]).toEqual([201, 'applied', 'person']);
  });
});

describe('size limits', () => {
  const SHEET = 'sheets/support.rules.yaml';

  it('stores and runs an edit between the old 1 MiB body limit and the document limit', async () => {
    const text = (await running(SHEET)).text;
    const big = `# ${'x'.repeat(1.5 * 1024 * 1024)}\n${text}`;
    const edit = await postEdit(server, SHEET, server.key('owner'), { content: big, reason: 'a long comment' });
    expect([edit.status, edit.json.status]).toEqual([201, 'applied']);
  });

  it('answers an edit over the document limit as a refused outcome with TOO_LARGE, and a body over the transport limit 413', async () => {
    const before = await okJson(server.call('GET', `${path(SHEET)}/history`, { key: server.key('viewer') }));
    const over = `# ${'x'.repeat(DEFAULT_MAX_DOCUMENT_BYTES)}\n`;
    const edit = await postEdit(server, SHEET, server.key('owner'), { content: over, reason: 'too big' });
    expect([edit.status, edit.json.status]).toEqual([422, 'refused']);
    expect(edit.json.reasons).toEqual([expect.objectContaining({ code: 'TOO_LARGE', severity: 'error' })]);
    expect(edit.json.reasons[0].message).toContain(`more than the limit of ${DEFAULT_MAX_DOCUMENT_BYTES.toLocaleString('en-US')} bytes`);

    const huge = JSON.stringify({ content: 'x'.repeat(MAX_EDIT_BODY_BYTES), reason: 'far too big', based_on: 1 });
    const transport = await postLarge(server.url, `${path(SHEET)}/edits`, server.key('owner'), huge);
    expect([transport.status, transport.json?.error?.code]).toEqual([413, 'TOO_LARGE']);
    expect(await okJson(server.call('GET', `${path(SHEET)}/history`, { key: server.key('viewer') }))).toEqual(before);
  });
});

describe('a conflicting edit', () => {
  it('carries its impact against the version that now runs', async () => {
    const id = 'policies/refunds.policy.json';
    const base = await running(id);
    const policy = JSON.parse(base.text);
    // Meanwhile someone else's edit runs: refunds up to 250 are allowed outright.
    const laxer = structuredClone(policy);
    laxer.rules[2].amount.gt = '250';
    laxer.rules[3].amount.lte = '250';
    const first = await server.call('POST', `${path(id)}/edits`, {
      key: server.key('owner'),
      body: { content: `${JSON.stringify(laxer, null, 2)}\n`, reason: 'laxer refunds', based_on: base.sequence },
    });
    expect(first.json.status).toBe('applied');

    // An edit written from the old version, which lets payouts through.
    const payouts = structuredClone(policy);
    payouts.rules[4].actions = ['customers.export'];
    payouts.rules.push({ id: 'payouts', actions: ['payouts.send'], effect: 'allow' });
    const stale = await server.call('POST', `${path(id)}/edits`, {
      key: server.key('owner'),
      body: { content: `${JSON.stringify(payouts, null, 2)}\n`, reason: 'allow payouts', based_on: base.sequence },
    });
    expect([stale.status, stale.json.status]).toEqual([409, 'conflict']);
    expect(stale.json.reasons.map((r: { code: string }) => r.code)).toEqual(['EDIT_CONFLICT']);
    expect(stale.json.impact.widens_security).toBe(true);
    expect(stale.json.impact.widened_subjects.length).toBeGreaterThan(0);
    const preview = stale.json.preview;
    expect(preview).toMatchObject({ id, running: first.json.version.sequence, widens: true });
    const tools = preview.catalogues.flatMap((k: { tools: { tool: string }[] }) => k.tools.map((t) => t.tool));
    // Against what runs now, the edit changes payouts and takes back the laxer refunds (101 to 250 held again).
    expect(tools).toEqual(expect.arrayContaining(['send_payout', 'issue_refund']));
    expect((await running(id)).sequence).toBe(first.json.version.sequence);
  });
});
