// The subjects of a decision diff without a catalogue: one hypothetical tool for every class of tools
// the two versions tell apart (which rules can reach it, in which currency it reads amounts), so every
// tool an agent could be given behaves like one of them (docs/review.md, "Subjects").
import type { CompiledPolicy } from '../policy/compile.ts';
import { MAX_PATTERN_LENGTH } from '../policy/pattern.ts';
import { CompiledTool } from '../policy/tool.ts';
import type { ToolBinding } from '../policy/types.ts';
import { parsePointer } from '../source/json-pointer.ts';
import { reachingRules } from './subject-space.ts';

export interface DiffSubject {
  tool: ToolBinding;
  /** How the subject is named in words: the catalogue's tool, or the class of tools it stands for. */
  label: string;
  /** Equal for two tools the two versions decide alike on every call (see subjectKey). */
  key: string;
  /** Other hypothetical tools of the same class, by label: every change of the subject is theirs too. */
  alike?: string[];
}

/**
 * The class of a tool under two versions: the rules of each that can reach it, in order, and the
 * currency of its amounts (one no rule names counts as "other"). Two tools with equal keys get equal
 * decisions for arguments from which they read the same amount.
 */
export function subjectKey(running: CompiledPolicy, candidate: CompiledPolicy, tool: ToolBinding): string {
  const compiled = new CompiledTool(tool);
  if (!compiled.valid) return 'invalid';
  const reach = [reachingRules(running, compiled), reachingRules(candidate, compiled)];
  // Amounts decide only through rules in the tool's own currency (subject-space.ts, amountMatters).
  const tested = compiled.currency !== undefined && reach.some((rules) => rules.some((r) => r.amountCurrency === compiled.currency));
  const currency = tested ? (compiled.currency as string) : 'any';
  return `${reach.map((rules) => rules.map((r) => r.index).join(',')).join('|')}|${currency}`;
}

/** The subjects of catalogue tools: each tool as it is. */
export function catalogueSubjects(running: CompiledPolicy, candidate: CompiledPolicy, tools: readonly ToolBinding[]): DiffSubject[] {
  return tools.map((tool) => ({ tool, label: `${tool.name} (${tool.action})`, key: subjectKey(running, candidate, tool) }));
}

/**
 * Hypothetical tools covering every class: every action either version names, a fresh action under each
 * wildcard and one no rule names; every tool name a rule lists and one listed nowhere; an amount mapping
 * in each currency the amount conditions name, in one they do not, and none. One subject per class.
 */
export function hypotheticalSubjects(running: CompiledPolicy, candidate: CompiledPolicy): DiffSubject[] {
  const rules = [...running.document.rules, ...candidate.document.rules];
  const patterns = new Set(rules.flatMap((r) => r.actions));
  const concrete = [...patterns].filter((p) => !p.endsWith('*')).sort();
  const prefixes = [...new Set([...patterns].filter((p) => p.endsWith('*')).map((p) => p.slice(0, -1)))].sort();
  if (!prefixes.includes('')) prefixes.unshift('');
  const actions: { action: string; label: string }[] = concrete.map((a) => ({ action: a, label: a }));
  for (const prefix of prefixes) {
    const action = freshName(prefix, 'other', (a) => concrete.includes(a) || a.length > MAX_PATTERN_LENGTH);
    if (action !== undefined)
      actions.push({ action, label: prefix === '' ? 'an action no rule names' : `${prefix}* (an action no rule names)` });
  }
  const listed = [...new Set(rules.flatMap((r) => r.tools ?? []))].sort();
  const names: { name: string; listed: boolean }[] = [
    { name: freshName('', 'tool', (n) => listed.includes(n)) as string, listed: false },
    ...listed.map((name) => ({ name, listed: true })),
  ];
  const currencies = [...namedCurrencies(running, candidate)].sort();
  const taken = new Set(rules.flatMap((r) => (r.when ?? []).map((c) => parsePointer(c.path)?.[0])));
  const pointer = `/${freshName('', 'amount', (t) => taken.has(t))}`;
  // Without a mapping first: for a class where amounts decide nothing, that is the subject kept.
  const mappings: { amount?: ToolBinding['amount']; words: string }[] = [{ words: ', no amount mapping' }];
  mappings.push(...currencies.map((currency) => ({ amount: { pointer, currency }, words: '' })));
  if (currencies.length > 0) {
    const other = ['XXX', 'XTS', 'XXY'].find((c) => !currencies.includes(c)) as string;
    mappings.push({ amount: { pointer, currency: other }, words: ', amounts in another currency' });
  }
  const out: DiffSubject[] = [];
  const seen = new Map<string, DiffSubject>();
  for (const { action, label } of actions) {
    for (const { name, listed: isListed } of names) {
      for (const mapping of mappings) {
        const tool: ToolBinding = mapping.amount ? { name, action, amount: mapping.amount } : { name, action };
        const key = subjectKey(running, candidate, tool);
        // Name the mapping only where some rule reaching the action tests amounts.
        const amountWords = testsAmounts(running, candidate, tool) ? mapping.words : '';
        const words = `${label}${isListed ? ` via tool ${name}` : ''}${amountWords}`;
        const first = seen.get(key);
        if (first) {
          if (first.label !== words && !first.alike?.includes(words)) first.alike = [...(first.alike ?? []), words];
          continue;
        }
        const subject: DiffSubject = { tool, key, label: words };
        seen.set(key, subject);
        out.push(subject);
      }
    }
  }
  return out;
}

function testsAmounts(running: CompiledPolicy, candidate: CompiledPolicy, tool: ToolBinding): boolean {
  const compiled = new CompiledTool(tool);
  return [running, candidate].some((p) => reachingRules(p, compiled).some((r) => r.amountCurrency !== null));
}

function namedCurrencies(running: CompiledPolicy, candidate: CompiledPolicy): Set<string> {
  const out = new Set<string>();
  for (const p of [running, candidate]) for (const r of p.rules) if (r.amountCurrency !== null) out.add(r.amountCurrency);
  return out;
}

/** `prefix + base`, or with a number after base, that `taken` refuses not; undefined when none fits. */
function freshName(prefix: string, base: string, taken: (name: string) => boolean): string | undefined {
  for (let i = 1; i < 1000; i++) {
    const name = `${prefix}${base}${i === 1 ? '' : `-${i}`}`;
    if (!taken(name)) return name;
  }
  return undefined;
}
