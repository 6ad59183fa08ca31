// What a catalogue edit widens, tool by tool (by name): a write tool added, a tool's binding changed (its
// action or amount mapping), a write turned read, or a declaration loosened.
import { type Catalogue, type CatalogueTool, readCatalogue } from '../rulebook/catalogue.ts';
import { declarationSubjects } from './impact-declarations.ts';
import type { Impact } from './types.ts';
import { impactOf } from './types.ts';

/**
 * Reads a catalogue for comparison: JSON when the text opens with `{`, else YAML.
 *
 * @example
 * loadCatalogue('tools: []\n') // { tools: [] }
 */
export function loadCatalogue(text: string): Catalogue | undefined {
  const r = readCatalogue(text, text.trimStart().startsWith('{') ? 'json' : 'yaml');
  return r.ok ? r.catalogue : undefined;
}

/**
 * Compares a new catalogue with the running one; with no running version, each write tool is a widening.
 *
 * @example
 * analyzeCatalogueImpact('tools:\n  - {name: lookup, action: orders.read, kind: read}\n',
 *   'tools:\n  - {name: lookup, action: orders.read, kind: read}\n  - {name: refund_card, action: refund.issue, kind: write}\n')
 * // { widensSecurity: true, widenedSubjects: ['tools/refund_card added'] }
 */
export function analyzeCatalogueImpact(runningText: string | undefined, newText: string): Impact {
  const after = loadCatalogue(newText);
  if (!after) return impactOf([]);
  const before = (runningText === undefined ? undefined : loadCatalogue(runningText)) ?? { tools: [] };
  return impactOf(catalogueSubjects(before, after));
}

/**
 * Every widening from one catalogue to another, in the new catalogue's tool order.
 *
 * @example
 * catalogueSubjects({ tools: [] }, { tools: [{ name: 'refund_card', action: 'refund.issue', kind: 'write' }] }) // ['tools/refund_card added']
 */
export function catalogueSubjects(before: Catalogue, after: Catalogue): string[] {
  const old = new Map(before.tools.map((t) => [t.name, t]));
  const out: string[] = [];
  for (const tool of after.tools) {
    const was = old.get(tool.name);
    const prefix = `tools/${tool.name}`;
    if (!was) {
      if (tool.kind === 'write') out.push(`${prefix} added`);
      continue;
    }
    out.push(...toolSubjects(was, tool).map((s) => `${prefix} ${s}`));
  }
  return out;
}

function toolSubjects(before: CatalogueTool, after: CatalogueTool): string[] {
  const out: string[] = [];
  if (before.kind === 'write' && after.kind === 'read') out.push('kind write -> read');
  // The action and amount mapping are the tool's authorized binding: any change is a widening to review.
  if (before.action !== after.action) out.push(`action ${before.action} -> ${after.action}`);
  out.push(...amountSubjects(before, after));
  out.push(...declarationSubjects(before, after));
  return out;
}

function amountSubjects(before: CatalogueTool, after: CatalogueTool): string[] {
  const b = before.amount;
  const a = after.amount;
  if (!b && !a) return [];
  if (!b) return ['amount added'];
  if (!a) return ['amount removed'];
  const out: string[] = [];
  if (b.pointer !== a.pointer) out.push(`amount pointer ${b.pointer} -> ${a.pointer}`);
  if (b.currency !== a.currency) out.push(`amount currency ${b.currency} -> ${a.currency}`);
  if (b.currency_pointer !== a.currency_pointer) {
    if (a.currency_pointer === undefined) out.push(`amount currency_pointer ${b.currency_pointer} removed`);
    else if (b.currency_pointer === undefined) out.push(`amount currency_pointer ${a.currency_pointer} added`);
    else out.push(`amount currency_pointer ${b.currency_pointer} -> ${a.currency_pointer}`);
  }
  return out;
}
