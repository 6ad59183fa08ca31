// What a decision map or impact preview is computed over, read from the data folder: an agent's catalogue
// and policies (as the gate loads them, routes/gate.ts), a policy document's versions, the catalogues of
// the agents that use it, and the workspace's judged members (docs/review.md, "In the API and the CLI").

import { type Agent, documentKindOf, type Member, readAgent, type ToolBinding } from '@tollgate/engine';
import { approverMembers } from '../approvals/member-keys-setting.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { loadAgentCached } from '../gate/load-agent.ts';
import { version } from '../routes/documents/checks.ts';
import { refuseNotAPolicy } from '../routes/policy-only.ts';
import { type Resource, storeError } from '../routes/route-kit.ts';
import { readRulesetVersion, workspaceCatalogue } from '../rulesets/ruleset-versions.ts';
import { bindingOf } from '../state/tools/model.ts';
import type { ReviewAnswer, ReviewTask } from './answers.ts';
import { runOnPool } from './review-pool.ts';

const WORKSPACE_CATALOGUE = 'catalogue.yaml';

/** A 404 of a reused loader as this route's: NOT_FOUND naming the resource (docs/api.md). */
function notFoundAs(resource: Resource) {
  return (err: unknown): never => {
    if (err instanceof ApiError && err.status === 404) throw new ApiError('NOT_FOUND', err.message, { resource });
    throw err;
  };
}

/** The members as the gate judges approvers (under the running settings), as a plain array the compile thread can be sent. */
export async function judgedMembers(ctx: AppContext): Promise<Member[]> {
  return [...(await approverMembers(ctx))];
}

/** A policy text of a review that does not load: what `review` throws for it. */
export type ReviewRefusal = (refused: Extract<ReviewAnswer, { ok: false; which: string }>) => ApiError;

/** A stored version that does not load: 409 POLICY_NOT_LOADABLE, the server's own text being unusable. */
function storedNotLoadable(what: string): ReviewRefusal {
  return (r) => new ApiError('POLICY_NOT_LOADABLE', `${what}: the ${r.which} version does not load`, { problems: r.problems });
}

/**
 * Runs a review task on the review pool (review-pool.ts), cancelled when `signal` aborts (the caller left); a
 * text that does not load is thrown as `refuse` says (a stored version's is 409 POLICY_NOT_LOADABLE), an
 * analysis past its budget is 422 ANALYSIS_OVER_BUDGET.
 */
export async function review<T extends ReviewAnswer & { ok: true }>(
  task: ReviewTask,
  what: string,
  signal?: AbortSignal,
  refuse: ReviewRefusal = storedNotLoadable(what),
): Promise<T> {
  const answer = await runOnPool(task, what, signal);
  if (!answer.ok) {
    if ('stopped' in answer) {
      const { code, limit, message } = answer.stopped;
      throw new ApiError(code, `${what}: ${message}`, { limit });
    }
    throw refuse(answer);
  }
  return answer as T;
}

/** A stored version's text; a missing one is 404 NOT_FOUND, resource version. */
export async function versionText(ctx: AppContext, id: string, sequence: number): Promise<string> {
  return (await version(ctx, id, sequence).catch(notFoundAs('version'))).text;
}

/** The running version of a document; none running is 404 NOT_FOUND, resource version. */
export async function runningVersion(ctx: AppContext, id: string): Promise<{ sequence: number; text: string }> {
  const doc = await ctx.store.get(id).catch(storeError);
  if (!doc) throw new ApiError('NOT_FOUND', `no version of ${id} runs`, { resource: 'version' });
  return { sequence: doc.sequence, text: doc.text };
}

export interface AgentSubject {
  catalogue: string;
  tools: ToolBinding[];
  /** The agent's own policy document, when it names one (not through a rule set). */
  policy: string | undefined;
  /** The policies the gate runs for the agent, each at the version it runs. */
  policies: { document: string; sequence: number }[];
}

/** The agent as the gate loads it: its catalogue's tools and the policies it runs. */
export async function agentSubject(ctx: AppContext, name: string): Promise<AgentSubject> {
  const { loaded } = await loadAgentCached(ctx, name).catch(notFoundAs('agent'));
  return {
    catalogue: loaded.agent.catalogue,
    tools: loaded.parts.catalogue.tools.map(bindingOf),
    policy: loaded.agent.policy,
    policies: loaded.parts.policies.map((p) => ({ document: p.document, sequence: p.sequence })),
  };
}

/** A policy document that exists: missing is 404 (resource document), another kind 400 NOT_A_POLICY. */
export async function assertPolicyDocument(ctx: AppContext, id: string): Promise<void> {
  const history = await ctx.store.history(id).catch(storeError);
  if (history.length === 0) throw new ApiError('NOT_FOUND', `no document ${id}`, { resource: 'document' });
  refuseNotAPolicy(id, 'only a policy has a decision map or an impact preview');
}

export interface CatalogueSubject {
  id: string;
  /** The agents that use the policy through this catalogue (none for the workspace's catalogue). */
  agents: string[];
  tools: ToolBinding[];
}

/**
 * The catalogues a policy document is reviewed over: those of the agents that use it (naming it, or
 * through a rule set whose version they run pins it), or the workspace's catalogue when no agent does.
 */
export async function policyCatalogues(
  ctx: AppContext,
  id: string,
): Promise<{ source: 'agents' | 'workspace'; catalogues: CatalogueSubject[] }> {
  const byCatalogue = new Map<string, string[]>();
  for (const other of await ctx.store.list().catch(storeError)) {
    if (documentKindOf(other) !== 'agent') continue;
    const text = (await ctx.store.get(other).catch(() => undefined))?.text;
    const read = text === undefined ? undefined : readAgent(text);
    if (!read?.ok || !(await usesPolicy(ctx, read.agent, id))) continue;
    const name = other.slice('agents/'.length, -'.agent.yaml'.length);
    byCatalogue.set(read.agent.catalogue, [...(byCatalogue.get(read.agent.catalogue) ?? []), name]);
  }
  const source = byCatalogue.size === 0 ? 'workspace' : 'agents';
  if (source === 'workspace') byCatalogue.set(WORKSPACE_CATALOGUE, []);
  const catalogues: CatalogueSubject[] = [];
  for (const [catalogue, agents] of [...byCatalogue].sort(([a], [b]) => a.localeCompare(b))) {
    const read = await workspaceCatalogue(ctx, catalogue);
    catalogues.push({ id: catalogue, agents: agents.sort(), tools: read.tools.map(bindingOf) });
  }
  return { source, catalogues };
}

async function usesPolicy(ctx: AppContext, agent: Agent, id: string): Promise<boolean> {
  if (agent.policy === id) return true;
  if (agent.ruleset === undefined) return false;
  // The set's version the agent runs (its own pin, else the active one); a set that does not read uses nothing.
  const read = await readRulesetVersion(ctx, agent.ruleset, agent.ruleset_version).catch(() => undefined);
  return read?.view.pins.some((p) => p.rule_id === id) ?? false;
}
