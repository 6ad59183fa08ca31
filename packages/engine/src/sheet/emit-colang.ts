// Emits the Colang policy a sheet equals (docs/colang.md): a computed context per `when`, a guard or
// refusal flow per governed action. Rules that only set confirmations, order or checks add no flow.
import type { Literal } from '../rulebook/types.ts';
import type { Sheet, SheetRule } from './read-sheet.ts';

const SYMBOL = { gt: '>', lt: '<', gte: '>=', lte: '<=', eq: '==' } as const;

/** The Colang text for a sheet; `source` names the sheet in the header comment. */
export function emitColang(sheet: Sheet, source = 'a rule sheet'): string {
  const blocks: string[] = [];
  const taken = new Set(sheet.rules.flatMap((r) => r.requires ?? []));
  for (const rule of sheet.rules) {
    const block = emitRule(rule, taken);
    if (block) blocks.push(block);
  }
  const header = `# Compiled from ${source} by tollgate. Deny by default: an action with a flow runs only where its guard holds.\n`;
  return blocks.length === 0 ? header : `${header}\n${blocks.join('\n')}`;
}

function emitRule(rule: SheetRule, taken: Set<string>): string | undefined {
  if (rule.never) return `define flow ${rule.action}\n  refuse\n`;
  if (!rule.requires) return undefined;
  const required = rule.requires.map((r) => `$${r}`).join(' and ');
  if (!rule.when) return `define flow ${rule.action}\n  allow when ${required}\n`;
  const name = contextName(rule.action, taken);
  const comparisons = rule.when.map((c) => `  ${c.arg} ${SYMBOL[c.op]} ${literal(c.value)}\n`).join('');
  const guard = rule.requires.length > 1 ? `(${required})` : required;
  return `define context ${name} on ${rule.action}\n${comparisons}\ndefine flow ${rule.action}\n  allow when not $${name} or ${guard}\n`;
}

/** A context name for an action's `when` that no required context already uses. */
function contextName(action: string, taken: Set<string>): string {
  const base = `when_${action.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`;
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
  taken.add(name);
  return name;
}

function literal(value: Literal): string {
  if ('decimal' in value) return value.decimal;
  if ('boolean' in value) return String(value.boolean);
  return JSON.stringify(value.string);
}
