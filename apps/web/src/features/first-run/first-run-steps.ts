// The first run's path, derived from what the server has: which drafts exist and which run (docs/console.md,
// "First run"). Pure, so the page only renders it.

/** What the path reads of each document (GET /v1/documents). */
export interface StoredDocument {
  id: string;
  kind: string | null;
  running_sequence: number | null;
  versions: number;
}

export type StepPage = 'import' | 'history' | 'simulation';

export interface FirstRunStep {
  key: 'import' | 'upstreams' | 'catalogue' | 'policy' | 'examples' | 'agent';
  title: string;
  /** The document the step is about, when it is one. */
  document: string | null;
  page: StepPage;
  done: boolean;
}

export interface FirstRunPath {
  /** No agent runs: the workspace is greeted with the path. */
  show: boolean;
  /** The drafted agent's name, once drafted. */
  agent: string | null;
  steps: FirstRunStep[];
  left: number;
}

const AGENT_ID = /^agents\/([a-z0-9][a-z0-9-]{0,63})\.agent\.yaml$/;

/**
 * The six steps, each done or left. An agent document that runs means the workspace is past its first run.
 *
 * @example
 * firstRunPath([]) // { show: true, agent: null, left: 6, steps: [{ key: 'import', done: false, ... }, ...] }
 */
export function firstRunPath(documents: readonly StoredDocument[]): FirstRunPath {
  const byId = new Map(documents.map((d) => [d.id, d]));
  const agents = documents.filter((d) => d.kind === 'agent');
  const show = !agents.some((d) => d.running_sequence !== null);
  // The newest draft the import made: an agent document with versions and none running.
  const drafted = agents.find((d) => d.versions > 0 && AGENT_ID.test(d.id));
  const agent = drafted ? (AGENT_ID.exec(drafted.id)?.[1] ?? null) : null;
  // A step is done when its document runs its newest version: reviewed and activated.
  const runs = (id: string) => {
    const d = byId.get(id);
    return d !== undefined && d.running_sequence !== null && d.running_sequence === d.versions;
  };
  const step = (key: FirstRunStep['key'], title: string, document: string | null, page: StepPage, done: boolean): FirstRunStep => ({
    key,
    title,
    document,
    page,
    done,
  });
  const steps =
    agent === null
      ? [
          step('import', 'Paste or upload your MCP client’s configuration', null, 'import', false),
          step('upstreams', 'Review and activate the drafted upstreams', 'mcp/servers.yaml', 'history', false),
          step('catalogue', 'Review and activate the drafted catalogue', null, 'history', false),
          step('policy', 'Review and activate the drafted policy', null, 'history', false),
          step('examples', 'Run the drafted examples, then activate them', null, 'simulation', false),
          step('agent', 'Activate the agent', null, 'history', false),
        ]
      : [
          step('import', 'Paste or upload your MCP client’s configuration', null, 'import', true),
          step('upstreams', 'Review and activate the drafted upstreams', 'mcp/servers.yaml', 'history', runs('mcp/servers.yaml')),
          step(
            'catalogue',
            'Review and activate the drafted catalogue',
            `catalogues/${agent}.yaml`,
            'history',
            runs(`catalogues/${agent}.yaml`),
          ),
          step(
            'policy',
            'Review and activate the drafted policy',
            `policies/${agent}.policy.json`,
            'history',
            runs(`policies/${agent}.policy.json`),
          ),
          step(
            'examples',
            'Run the drafted examples, then activate them',
            `policies/${agent}.examples.json`,
            'simulation',
            runs(`policies/${agent}.examples.json`),
          ),
          step('agent', 'Activate the agent', `agents/${agent}.agent.yaml`, 'history', runs(`agents/${agent}.agent.yaml`)),
        ];
  return { show, agent, steps, left: steps.filter((s) => !s.done).length };
}
