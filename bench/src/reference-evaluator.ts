// A plain reference evaluator for policy@1: the straightforward loop over every rule, decimal.js for
// every comparison, no index, no compilation. It is the baseline the compiled engine must beat, and
// the oracle of the differential test. Written apart from the engine on purpose: it shares no logic.
import Decimal from 'decimal.js';

type Tri = 'T' | 'F' | 'U';
interface Rule {
  id: string;
  actions: string[];
  tools?: string[];
  amount?: Record<string, string>;
  when?: Record<string, unknown>[];
  effect: 'allow' | 'require_approval' | 'deny';
}
export interface ReferenceDocument {
  default: 'deny' | 'require_approval';
  rules: Rule[];
}
export interface ReferenceTool {
  name: string;
  action: string;
  amount?: { pointer: string; currency: string; currency_pointer?: string };
}
export interface ReferenceOutcome {
  decision: string;
  rule: string | null;
  code: string | null;
}

const AMOUNT = /^(0|[1-9][0-9]*)(\.[0-9]{1,18})?$/;
const SIGNED = /^-?(0|[1-9][0-9]*)(\.[0-9]{1,18})?$/;
const GONE = Symbol('gone');

function tokens(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function get(value: unknown, token: string): unknown {
  if (Array.isArray(value)) return /^(0|[1-9][0-9]*)$/.test(token) && Number(token) < value.length ? value[Number(token)] : GONE;
  if (value !== null && typeof value === 'object' && Object.hasOwn(value, token)) return (value as Record<string, unknown>)[token];
  return GONE;
}

function select(value: unknown, ts: string[]): unknown[] {
  let current: unknown[] = [value];
  for (const t of ts) {
    const next: unknown[] = [];
    for (const v of current) {
      if (v === GONE) next.push(GONE);
      else if (t === '*' && Array.isArray(v)) next.push(...v);
      else next.push(get(v, t));
    }
    current = next;
  }
  return current;
}

function kind(v: unknown): string {
  return v === null ? 'null' : typeof v;
}

function numeric(v: unknown): Decimal | undefined {
  if (typeof v === 'string' && SIGNED.test(v)) return new Decimal(v);
  if (typeof v === 'number' && Number.isSafeInteger(v)) return new Decimal(v);
  return undefined;
}

function bounds(d: Decimal, c: Record<string, unknown>): boolean {
  if (typeof c.gt === 'string' && !d.gt(c.gt)) return false;
  if (typeof c.gte === 'string' && !d.gte(c.gte)) return false;
  if (typeof c.lt === 'string' && !d.lt(c.lt)) return false;
  if (typeof c.lte === 'string' && !d.lte(c.lte)) return false;
  return true;
}

function testOne(c: Record<string, unknown>, v: unknown): Tri {
  if (v === GONE) return 'U';
  if ('eq' in c) {
    if (kind(v) !== kind(c.eq) || (typeof v === 'number' && !Number.isSafeInteger(v))) return 'U';
    return v === c.eq ? 'T' : 'F';
  }
  if ('in' in c) {
    const list = c.in as unknown[];
    if (!list.some((x) => kind(x) === kind(v)) || (typeof v === 'number' && !Number.isSafeInteger(v))) return 'U';
    return list.includes(v) ? 'T' : 'F';
  }
  if ('starts_with' in c) {
    if (typeof v !== 'string') return 'U';
    return (c.starts_with as string[]).some((p) => v.startsWith(p)) ? 'T' : 'F';
  }
  const d = numeric(v);
  if (!d) return 'U';
  return bounds(d, c) ? 'T' : 'F';
}

function condition(c: Record<string, unknown>, args: unknown): Tri {
  const ts = tokens(c.path as string);
  if (!ts.includes('*')) return testOne(c, select(args, ts)[0]);
  const results = select(args, ts).map((v) => testOne(c, v));
  if (c.for === 'any') {
    if (results.includes('T')) return 'T';
    return results.length === 0 || results.includes('U') ? 'U' : 'F';
  }
  if (results.includes('F')) return 'F';
  return results.length === 0 || results.includes('U') ? 'U' : 'T';
}

function matches(pattern: string, action: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return action.startsWith(pattern.slice(0, -1)) && action.length > pattern.length - 1;
  return pattern === action;
}

const RANK = { allow: 0, require_approval: 1, deny: 2 };

/** Decides one call the slow, obvious way. */
export function referenceDecide(doc: ReferenceDocument, tool: ReferenceTool, args: unknown): ReferenceOutcome {
  let amount: Decimal | undefined;
  if (tool.amount) {
    if (tool.amount.currency_pointer !== undefined && select(args, tokens(tool.amount.currency_pointer))[0] !== tool.amount.currency) {
      return { decision: 'deny', rule: null, code: 'INVALID_AMOUNT' };
    }
    const v = select(args, tokens(tool.amount.pointer))[0];
    if (v !== GONE) {
      if (typeof v === 'string' && AMOUNT.test(v)) amount = new Decimal(v);
      else if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) amount = new Decimal(v);
      else return { decision: 'deny', rule: null, code: 'INVALID_AMOUNT' };
    }
  }
  let best: Rule | undefined;
  for (const rule of doc.rules) {
    if (!rule.actions.some((p) => matches(p, tool.action))) continue;
    if (rule.tools && !rule.tools.includes(tool.name)) continue;
    const parts: Tri[] = [];
    if (rule.amount) {
      if (!amount || tool.amount?.currency !== rule.amount.currency) parts.push('U');
      else parts.push(bounds(amount, rule.amount) ? 'T' : 'F');
    }
    for (const c of rule.when ?? []) parts.push(condition(c, args));
    const applies = rule.effect === 'allow' ? parts.every((p) => p === 'T') : !parts.includes('F');
    if (applies && (!best || RANK[rule.effect] > RANK[best.effect])) best = rule;
  }
  if (!best) return { decision: doc.default, rule: null, code: 'DEFAULT' };
  return { decision: best.effect, rule: best.id, code: null };
}
