// The sheet suite: compile + lint of a generated 200-rule sheet against a 300-tool catalogue, the work
// the console does on every keystroke (it must stay well under a 16 ms frame).
import { compileSheet, createSheetCache, readCatalogue } from '@tollgate/engine';
import { type Figure, median, quantile } from './measure.ts';
import { seeded } from './streams.ts';

/** A 300-tool catalogue in YAML, two in three of them writes. */
export function generatedCatalogue(tools = 300): string {
  let text = 'tools:\n';
  for (let i = 0; i < tools; i++) {
    text += `  - name: tool_${i}\n    action: svc${i % 30}.op${i}\n    kind: ${i % 3 === 0 ? 'read' : 'write'}\n`;
    if (i % 5 === 0) text += '    amount: { pointer: /amount, currency: USD }\n';
  }
  return text;
}

/** A 200-rule sheet using every construct, over the catalogue's tools (and a few it lacks, for lints). */
export function generatedSheet(rules = 200, seed = 3): string {
  const random = seeded(seed);
  let text = '# A generated sheet for the benchmark.\nrules:\n';
  for (let i = 0; i < rules; i++) {
    const tool = i < rules - 5 ? `tool_${i}` : `missing_${i}`;
    text += `  - action: ${tool}\n`;
    const kind = Math.floor(random() * 6);
    if (kind === 0) text += '    never: true\n';
    else if (kind === 1)
      text += `    requires: [approved_${i % 7}, checked]\n    when: { amount_over: ${100 + i}, region_is: "eu", count_at_most: ${i % 9} }\n`;
    else if (kind === 2) text += `    requires: [supervisor_approved]\n`;
    else if (kind === 3) text += `    requires_confirmation: true\n    after: [tool_${(i + 1) % 300}]\n    at_most: ${1 + (i % 4)}\n`;
    else if (kind === 4) text += `    confirmation: "Run tool ${i}?"\n    not_after: [tool_${(i + 2) % 300}]\n`;
    else text += `    check: [{field: quantity, at_most: {from: tool_${(i + 3) % 300}.in_stock}}, {field: country, in: [DE, FR]}]\n`;
  }
  return text;
}

/** A one-rule sheet whose `key` lists `n` names (contexts for requires, tools for after). */
export function listSheet(key: 'requires' | 'after', n: number): string {
  const names = Array.from({ length: n }, (_, i) => (key === 'after' ? `tool_${i}` : `ctx_${i}`));
  return `rules:\n  - action: refund_card\n    ${key}: [${names.join(', ')}]\n`;
}

export function runSheetSuite(): { figures: Figure[]; notes: string[] } {
  const catalogueResult = readCatalogue(generatedCatalogue(), 'yaml');
  if (!catalogueResult.ok) throw new Error('the generated catalogue does not load');
  const catalogue = catalogueResult.catalogue;
  const sheet = generatedSheet();
  const first = compileSheet(sheet, catalogue);
  if (!first.ok) throw new Error(`the generated sheet was refused: ${first.problems[0]?.message}`);
  for (let i = 0; i < 20; i++) compileSheet(sheet, catalogue);
  const compile: number[] = [];
  for (let i = 0; i < 200; i++) {
    const start = process.hrtime.bigint();
    compileSheet(sheet, catalogue);
    compile.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  // A keystroke: one rule's text changes (a digit typed into its at_most), the rest come from the cache.
  const cache = createSheetCache();
  compileSheet(sheet, catalogue, 'rules.yaml', cache);
  const keystroke: number[] = [];
  for (let i = -20; i < 300; i++) {
    const edited = sheet.replace('  - action: tool_100\n', `  - action: tool_100\n    # typing ${i}\n`);
    const start = process.hrtime.bigint();
    const r = compileSheet(edited, catalogue, 'rules.yaml', cache);
    if (i >= 0) keystroke.push(Number(process.hrtime.bigint() - start) / 1e6); // the first 20 warm up
    if (!r.ok) throw new Error('the edited sheet was refused');
  }
  const catalogueText = generatedCatalogue();
  const readCat: number[] = [];
  for (let i = 0; i < 5; i++) readCatalogue(catalogueText, 'yaml'); // warm-up
  for (let i = 0; i < 50; i++) {
    const start = process.hrtime.bigint();
    readCatalogue(catalogueText, 'yaml');
    readCat.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  // Long lists: 1k names compile; 10k and 60k are over the 1000-name limit and refused (rule_sheet_limit).
  // Linear means the time per name stays flat from 1k to 60k (it was quadratic: 60k took 12 s).
  const lists: { name: string; values: number[] }[] = [];
  const perName: string[] = [];
  for (const key of ['requires', 'after'] as const) {
    for (const n of [1000, 10_000, 60_000]) {
      const text = listSheet(key, n);
      const expected = n <= 1000;
      const values: number[] = [];
      for (let i = -2; i < (n > 10_000 ? 5 : 10); i++) {
        const start = process.hrtime.bigint();
        const r = compileSheet(text);
        if (i >= 0) values.push(Number(process.hrtime.bigint() - start) / 1e6);
        if (r.ok !== expected) throw new Error(`a ${n}-name ${key} list was ${r.ok ? 'compiled' : 'refused'}`);
      }
      const verb = expected ? 'compile' : 'refuse (rule_sheet_limit)';
      lists.push({ name: `${verb} a ${n.toLocaleString('en')}-name ${key} list`, values });
      perName.push(`${key} ${n}: ${((median(values) * 1000) / n).toFixed(2)} µs/name`);
    }
  }
  const figure = (name: string, values: number[]): Figure => ({
    suite: 'sheet',
    figure: name,
    unit: 'ms',
    median: median(values),
    p95: quantile(values, 0.95),
    runs: values.length,
  });
  return {
    figures: [
      figure('compile + lint a 200-rule sheet, 300-tool catalogue (cold)', compile),
      figure('compile + lint on a keystroke (one rule changed, cached rules)', keystroke),
      figure('read a 300-tool YAML catalogue', readCat),
      ...lists.map((l) => figure(l.name, l.values)),
    ],
    notes: [
      `sheet lists, median per name: ${perName.join('; ')}`,
      `sheet: ${first.rulebook.flows.length} flows, ${Object.keys(first.overlay.tools).length} overlay entries, ${first.lints.length} lints`,
    ],
  };
}
