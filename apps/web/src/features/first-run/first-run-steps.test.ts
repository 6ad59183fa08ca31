// The first run's steps from what the server has: an empty workspace has all six left; each draft counts as done
// once it runs its newest version; a running agent ends the first run.
import { describe, expect, it } from 'vitest';
import { firstRunPath, type StoredDocument } from './first-run-steps.ts';

const draft = (id: string, kind: string): StoredDocument => ({ id, kind, running_sequence: null, versions: 1 });
const runs = (d: StoredDocument): StoredDocument => ({ ...d, running_sequence: d.versions });

const DRAFTS = [
  draft('mcp/servers.yaml', 'upstreams'),
  draft('catalogues/files-bot.yaml', 'catalogue'),
  draft('policies/files-bot.policy.json', 'policy'),
  draft('policies/files-bot.examples.json', 'examples'),
  draft('agents/files-bot.agent.yaml', 'agent'),
];

const marks = (documents: StoredDocument[]) => firstRunPath(documents).steps.map((s) => `${s.key}:${s.done ? 'done' : 'left'}`);

describe('the first run’s steps', () => {
  it('are all left in an empty workspace, the import first', () => {
    const path = firstRunPath([]);
    expect(path).toMatchObject({ show: true, agent: null, left: 6 });
    expect(path.steps[0]).toMatchObject({ key: 'import', page: 'import', document: null });
  });

  it('name the drafted agent’s documents and count each running draft as done', () => {
    expect(firstRunPath(DRAFTS)).toMatchObject({ show: true, agent: 'files-bot', left: 5 });
    expect(firstRunPath(DRAFTS).steps.map((s) => s.document)).toEqual([null, ...DRAFTS.map((d) => d.id)]);
    const some = DRAFTS.map((d, i) => (i < 2 ? runs(d) : d));
    expect(marks(some)).toEqual(['import:done', 'upstreams:done', 'catalogue:done', 'policy:left', 'examples:left', 'agent:left']);
  });

  it('count a document whose newest version does not run as left', () => {
    const older = DRAFTS.map((d) => (d.id === 'mcp/servers.yaml' ? { ...d, versions: 2, running_sequence: 1 } : d));
    expect(marks(older)[1]).toBe('upstreams:left');
  });

  it('end once an agent runs', () => {
    expect(firstRunPath(DRAFTS.map(runs))).toMatchObject({ show: false, left: 0 });
    expect(firstRunPath([runs(draft('agents/support-bot.agent.yaml', 'agent'))]).show).toBe(false);
  });
});
