// The documents `tollgate mcp import` drafts from the servers it listed: the upstreams (mcp/servers.yaml), a
// catalogue tool per upstream tool, a deny-by-default policy (read-only tools allowed, every other tool held
// for approval) and the agent that names them (docs/mcp.md, "Starting from what you have").
import type { Upstream } from '@tollgate/engine';
import type { Diagnostic } from '@tollgate/engine/source';

/** An upstream tool as tools/list gave it: only what the drafts read. */
export interface ListedTool {
  name: string;
  annotations?: { readOnlyHint?: boolean };
}

/** A catalogue tool drafted for an upstream tool. */
export interface DraftTool {
  name: string;
  action: string;
  kind: 'read' | 'write';
  server: string;
  tool: string;
}

/** The roles that may approve (docs/policy.md, "Approvers"): every workspace has an owner. */
export const APPROVER_ROLES = ['owner', 'admin', 'approver'] as const;
/** A policy rule lists at most 64 action patterns, as an agent's delegation does. */
const MAX_PATTERNS = 64;
const UPSTREAM_TOOL = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * One catalogue tool per upstream tool: named `<server>_<tool>`, its action `<server>.<tool>` in the action
 * grammar, read only when the upstream annotates it readOnlyHint: true. A tool the catalogue cannot map to
 * is reported (TOOL_NOT_MAPPABLE at `path`), not dropped silently.
 *
 * @example
 * draftTools([{ server: 'files', path: '/mcpServers/files', tools: [{ name: 'readFile', annotations: { readOnlyHint: true } }] }], [])
 * // [{ name: 'files_readFile', action: 'files.read_file', kind: 'read', server: 'files', tool: 'readFile' }]
 */
export function draftTools(
  listed: readonly { server: string; path: string; tools: readonly ListedTool[] }[],
  problems: Diagnostic[],
): DraftTool[] {
  const names = new Set<string>();
  const actions = new Set<string>();
  const out: DraftTool[] = [];
  for (const { server, path, tools } of listed) {
    // An action never lies in the reserved tollgate. namespace (docs/policy.md).
    const namespace = server === 'tollgate' ? 'tollgate-upstream' : server;
    for (const tool of tools) {
      if (!UPSTREAM_TOOL.test(tool.name)) {
        problems.push({
          code: 'TOOL_NOT_MAPPABLE',
          severity: 'warning',
          path,
          message: `${server}'s tool ${JSON.stringify(tool.name.slice(0, 140))} is not a name a catalogue can map to; it is not drafted`,
        });
        continue;
      }
      const name = unique(`${server}_${tool.name}`.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 124), names, '_');
      const action = unique(`${namespace}.${segment(tool.name)}`.slice(0, 124), actions, '-');
      out.push({ name, action, kind: tool.annotations?.readOnlyHint === true ? 'read' : 'write', server, tool: tool.name });
    }
  }
  return out;
}

/**
 * The upstreams document: the running one with the new servers after it. Its text is kept (comments and all)
 * when the new entries can be appended to it and read back as the same servers; else written afresh.
 */
export function upstreamsText(
  running: { text: string; servers: readonly Upstream[] } | undefined,
  added: readonly Upstream[],
  source: string,
): string {
  const entries = added.map(serverYaml).join('');
  if (running === undefined) return `# Drafted by tollgate mcp import from ${source}: review it before activating.\nservers:\n${entries}`;
  return `${running.text.replace(/\s*$/, '\n')}${entries}`;
}

/** The upstreams document written afresh, for a running text the new entries cannot be appended to. */
export function upstreamsTextAfresh(servers: readonly Upstream[]): string {
  return `servers:\n${servers.map(serverYaml).join('')}`;
}

function serverYaml(s: Upstream): string {
  if (s.transport === 'stdio') {
    return [
      `  - name: ${q(s.name)}\n`,
      '    stdio:\n',
      `      command: ${q(s.command)}\n`,
      s.args.length > 0 ? `      args: [${s.args.map(q).join(', ')}]\n` : '',
      s.env.length > 0 ? `      env: [${s.env.map(q).join(', ')}]\n` : '',
    ].join('');
  }
  const headers = Object.entries(s.headers);
  return [
    `  - name: ${q(s.name)}\n`,
    '    http:\n',
    `      url: ${q(s.url)}\n`,
    headers.length > 0 ? `      headers: { ${headers.map(([h, v]) => `${q(h)}: ${q(v)}`).join(', ')} }\n` : '',
  ].join('');
}

export function catalogueText(tools: readonly DraftTool[], source: string): string {
  const lines = tools.map(
    (t) =>
      `  - { name: ${q(t.name)}, action: ${q(t.action)}, kind: ${t.kind}, upstream: { server: ${q(t.server)}, tool: ${q(t.tool)} } }\n`,
  );
  return `# Drafted by tollgate mcp import from ${source}: one tool per upstream tool; kind read where the upstream\n# annotates the tool readOnlyHint: true. Review it before activating.\ntools:\n${lines.join('')}`;
}

/** Deny by default; the read-only tools' actions allowed; every other drafted tool's held for a person. */
export function policyText(tools: readonly DraftTool[]): string {
  const reads = tools.filter((t) => t.kind === 'read').map((t) => t.action);
  const writes = tools.filter((t) => t.kind === 'write').map((t) => t.action);
  const rules = [
    ...chunks(reads).map((actions, i) => ({
      id: `read-only-tools${i === 0 ? '' : `-${i + 1}`}`,
      description: 'Tools their MCP server annotates readOnlyHint: true (drafted by tollgate mcp import).',
      actions,
      effect: 'allow',
    })),
    ...chunks(writes).map((actions, i) => ({
      id: `other-tools-need-approval${i === 0 ? '' : `-${i + 1}`}`,
      description: 'Every other tool of the MCP servers waits for a person (drafted by tollgate mcp import).',
      actions,
      effect: 'require_approval',
      approvers: { roles: [...APPROVER_ROLES] },
    })),
  ];
  return `${JSON.stringify({ schema: 'tollgate/policy@1', default: 'deny', rules }, null, 2)}\n`;
}

/**
 * The policy's example suite (docs/documents.md, "Example suites"): one call per drafted tool, expecting what the
 * drafted policy decides for it, so the drafts can be run before anything is activated.
 */
export function examplesText(tools: readonly DraftTool[]): string {
  const ruleOf = (kind: DraftTool['kind'], index: number) => {
    const n = Math.floor(index / MAX_PATTERNS);
    const base = kind === 'read' ? 'read-only-tools' : 'other-tools-need-approval';
    return n === 0 ? base : `${base}-${n + 1}`;
  };
  const seen = { read: 0, write: 0 };
  const examples = tools.map((t) => ({
    name: `${t.name} is ${t.kind === 'read' ? 'allowed' : 'held for approval'}`,
    tool: t.name,
    arguments: {},
    expect: { decision: t.kind === 'read' ? 'allow' : 'require_approval', rule: ruleOf(t.kind, seen[t.kind]++) },
  }));
  return `${JSON.stringify({ tools: tools.map((t) => ({ name: t.name, action: t.action })), examples }, null, 2)}\n`;
}

/** The agent: its catalogue and policy, delegated every action of the imported servers. */
export function agentText(catalogueId: string, policyId: string, tools: readonly DraftTool[], source: string): string {
  const patterns = [...new Set(tools.map((t) => `${t.action.slice(0, t.action.indexOf('.'))}.*`))];
  return [
    `# Drafted by tollgate mcp import from ${source}: review it before activating.\n`,
    `catalogue: ${catalogueId}\n`,
    `policy: ${policyId}\n`,
    'delegation:\n',
    `  actions: [${patterns.join(', ')}]\n`,
    'disclosure: rule\n',
  ].join('');
}

/** An upstream tool's name as one action segment: words in snake case, other characters as _. */
function segment(tool: string): string {
  const words = tool
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return words === '' ? 'tool' : words;
}

function unique(base: string, taken: Set<string>, joiner: string): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}${joiner}${n}`;
  taken.add(name);
  return name;
}

function chunks(items: readonly string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < items.length; i += MAX_PATTERNS) out.push(items.slice(i, i + MAX_PATTERNS));
  return out;
}

/** A YAML scalar written as a JSON string: double-quoted YAML reads it back as the same text. */
function q(text: string): string {
  return JSON.stringify(text);
}
