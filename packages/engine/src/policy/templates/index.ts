// Policy templates: the registry, and createFromTemplate, which turns parameters into a draft with examples,
// notes and a delegation hint (docs/policy.md, "Templates").
import { problem } from '../../conditions/family.ts';
import type { PolicyDocument } from '../types.ts';
import { deploysWithApproval } from './deploys-with-approval.ts';
import { formatParameter, resolveParameters } from './parameters.ts';
import { payoutsDualLimits } from './payouts-dual-limits.ts';
import { readOnly } from './read-only.ts';
import { supportRefunds } from './support-refunds.ts';
import type { Template, TemplateInfo, TemplateResult } from './types.ts';

export { MAX_AMOUNT_PARAMETER } from './parameters.ts';
export type * from './types.ts';

/** Every template, in the order they are listed. */
export const TEMPLATES: readonly Template[] = [supportRefunds, readOnly, deploysWithApproval, payoutsDualLimits];

/** The templates' names, titles, one-line descriptions and parameters. */
export function listTemplates(): TemplateInfo[] {
  return TEMPLATES.map(({ name, title, description, parameters }) => ({ name, title, description, parameters }));
}

/** The template called `name`, or undefined. */
export function getTemplate(name: string): Template | undefined {
  return TEMPLATES.find((t) => t.name === name);
}

/**
 * Creates a draft from a template: omitted parameters take their defaults, and every problem is
 * reported (UNKNOWN_TEMPLATE, UNKNOWN_PARAMETER, INVALID_PARAMETER, PARAMETER_ORDER) at `/template`
 * or `/params/<name>`. Nothing is activated.
 *
 * @example
 * createFromTemplate('support-refunds', { auto_limit: '50.00' })
 * // { ok: true, template: 'support-refunds', document: { ... "lte": "50" ... }, examples, notes, delegation }
 */
export function createFromTemplate(name: string, params: Readonly<Record<string, string>> = {}): TemplateResult {
  const template = getTemplate(name);
  if (!template) {
    const known = TEMPLATES.map((t) => t.name).join(', ');
    return { ok: false, errors: [problem('UNKNOWN_TEMPLATE', '/template', `there is no template "${name}"; the templates are ${known}`)] };
  }
  const resolved = resolveParameters(template, params);
  if (!resolved.ok) return resolved;
  const built = template.build(resolved.values);
  const parameters: Record<string, string> = {};
  for (const [key, value] of Object.entries(resolved.values)) parameters[key] = formatParameter(value);
  return {
    ok: true,
    template: template.name,
    parameters,
    document: built.document,
    examples: built.examples,
    notes: built.notes,
    delegation: built.maxAmount
      ? { permissions: permissionsOf(built.document), max_amount: built.maxAmount }
      : { permissions: permissionsOf(built.document) },
  };
}

/** The action patterns of the rules that can let a call through (allow and require_approval), in document order. */
function permissionsOf(document: PolicyDocument): string[] {
  const out: string[] = [];
  for (const rule of document.rules) {
    if (rule.effect === 'deny') continue;
    for (const pattern of rule.actions) if (!out.includes(pattern)) out.push(pattern);
  }
  return out;
}
