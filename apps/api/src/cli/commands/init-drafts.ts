// The documents `tollgate init` drafts besides what `policy template create` and `mcp import` draft: a catalogue
// and an agent for a template's policy, an example suite for an imported policy, and the settings (docs/cli.md,
// "tollgate init").
import type { ExampleSuite, TemplateResult } from '@tollgate/engine/policy';
import { matchesAction } from '@tollgate/engine/policy';
import type { DraftTool } from '../../server/mcp/import-texts.ts';

/** A template's draft, as createFromTemplate returns it when the parameters hold. */
export type TemplateDraft = Extract<TemplateResult, { ok: true }>;

/** The ids of the documents an init drafts for one agent, named after it as `mcp import` names them. */
export function initIds(agent: string) {
  return {
    catalogue: `catalogues/${agent}.yaml`,
    policy: `policies/${agent}.policy.json`,
    examples: `policies/${agent}.examples.json`,
    agent: `agents/${agent}.agent.yaml`,
    settings: 'settings.yaml',
  };
}

/**
 * The catalogue of a template's policy: one tool per tool of its example suite, so every example calls a tool
 * the agent has. A tool is `read` when its action is one of the template's `read_actions` (every template has
 * them), else `write`.
 *
 * @example
 * templateCatalogueText(createFromTemplate('read-only')) // 'tools:\n  - { name: "orders.read", action: "orders.read", kind: read }\n...'
 */
export function templateCatalogueText(draft: TemplateDraft): string {
  const reads = (draft.parameters.read_actions ?? '').split(',').filter((p) => p !== '');
  const lines = draft.examples.tools.map((t) => {
    const kind = reads.some((p) => matchesAction(p, t.action)) ? 'read' : 'write';
    const amount = t.amount
      ? `, amount: { pointer: ${q(t.amount.pointer)}, currency: ${q(t.amount.currency)}${
          t.amount.currency_pointer !== undefined ? `, currency_pointer: ${q(t.amount.currency_pointer)}` : ''
        } }`
      : '';
    return `  - { name: ${q(t.name)}, action: ${q(t.action)}, kind: ${kind}${amount} }\n`;
  });
  return `# Drafted by tollgate init from the ${draft.template} template: the tools its examples call. Review it before\n# activating; map each to an upstream MCP server's tool (upstream: {server, tool}) to call it over MCP.\ntools:\n${lines.join('')}`;
}

/**
 * The agent of a template's policy: delegated the actions the template's hint names. No spending limit: a
 * delegation with one refuses every tool without an amount mapping (docs/policy.md, "Amounts"), and every
 * template's agent reads; the policy's own limits bound the amounts.
 */
export function templateAgentText(ids: { catalogue: string; policy: string }, draft: TemplateDraft): string {
  return [
    `# Drafted by tollgate init from the ${draft.template} template: review it before activating.\n`,
    `catalogue: ${ids.catalogue}\n`,
    `policy: ${ids.policy}\n`,
    'delegation:\n',
    `  actions: [${draft.delegation.permissions.join(', ')}]\n`,
    'disclosure: rule\n',
  ].join('');
}

/**
 * The example suite of an imported policy (server/mcp/import-texts.ts policyText): each read-only tool is allowed,
 * every other tool held for a person, as the draft says; a person who edits the policy sees what changes.
 */
export function importedExamples(tools: readonly DraftTool[]): ExampleSuite {
  return {
    tools: tools.map((t) => ({ name: t.name, action: t.action })),
    examples: tools.map((t) => ({
      name: t.kind === 'read' ? `${t.name} is read-only, so it is allowed` : `${t.name} may write, so it waits for a person`,
      tool: t.name,
      arguments: {},
      expect: { decision: t.kind === 'read' ? 'allow' : 'require_approval' },
    })),
  };
}

/** A suite or a policy as its stored text: JSON, two-space indented, one final newline. */
export function jsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The settings: the defaults written out, so a person sees what can be set (docs/documents.md, "Settings"). */
export const SETTINGS_TEXT = `# Drafted by tollgate init: the defaults, written out (docs/documents.md, "Settings").
approval_ttl_seconds: 86400
approved_rulesets_only: false
`;

/** A YAML scalar written as a JSON string: double-quoted YAML reads it back as the same text. */
function q(text: string): string {
  return JSON.stringify(text);
}
