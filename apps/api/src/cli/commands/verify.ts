// tollgate verify DIR: every document of a documents folder checked: catalogues, sheets and Colang
// against the catalogue, policies against its tools, rule sets, agents, settings and example suites by
// their validators, and each policy's example suite run against it. Exit 1 on any problem, 0 with lints only.
import { lstatSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import {
  type Catalogue,
  type CatalogueTool,
  compileRules,
  documentKindOf,
  exampleSuiteIdOf,
  formatLint,
  formatRefusal,
  readCatalogue,
  rulesKindOf,
  validateDocument,
} from '@tollgate/engine';
import { CompiledPolicy, type PolicyDocument, readExampleSuite, runPolicyTests, validatePolicy } from '@tollgate/engine/policy';
import { formatDiagnostic, readJsonText } from '@tollgate/engine/source';
import { CliError, type CliIo, EXIT_INVALID, EXIT_OK } from '../io.ts';
import { MAX_DOCUMENT_BYTES, readTextFile } from '../read-input.ts';
import { describeOutcome } from './policy-test.ts';

interface Found {
  path: string;
  name: string;
}

export function verify(dir: string, io: CliIo): number {
  const files = listDocuments(dir);
  let problems = 0;
  let lints = 0;
  const problem = (line: string) => {
    problems++;
    io.stdout.write(`${line}\n`);
  };
  const lint = (line: string) => {
    lints++;
    io.stdout.write(`${line}\n`);
  };
  const read = (f: Found): string | undefined => {
    try {
      return readTextFile(f.path, MAX_DOCUMENT_BYTES);
    } catch (err) {
      problem(err instanceof CliError ? err.message : `${f.name}: UNREADABLE`);
      return undefined;
    }
  };

  // The catalogue first: everything else is checked against it.
  const tools: CatalogueTool[] = [];
  const catalogues = files.filter(
    (f) => f.name === 'catalogue.yaml' || f.name === 'catalogue.json' || /^catalogues\/[^/]+\.(ya?ml|json)$/.test(f.name),
  );
  for (const f of catalogues) {
    const text = read(f);
    if (text === undefined) continue;
    const result = readCatalogue(text, f.name.endsWith('.json') ? 'json' : 'yaml');
    if (!result.ok) for (const p of result.problems) problem(formatDiagnostic(f.name, p));
    else
      for (const t of result.catalogue.tools) {
        if (tools.some((k) => k.name === t.name)) problem(`${f.name}: DUPLICATE_TOOL: ${t.name} is in another catalogue file too`);
        else tools.push(t);
      }
  }
  const catalogue: Catalogue | undefined = catalogues.length > 0 ? { tools } : undefined;

  let checked = catalogues.length;
  const names = new Set(files.map((f) => f.name));
  /** Policies without problems, by id, and example suites' texts: the suites run once all are read. */
  const soundPolicies = new Map<string, unknown>();
  const suiteTexts = new Map<string, string>();
  const skipped: string[] = [];
  for (const f of files) {
    if (catalogues.includes(f)) continue;
    const kind = /^sheets\/[^/]+\.rules\.ya?ml$/.test(f.name)
      ? 'sheet'
      : /^colang\/[^/]+\.co$/.test(f.name)
        ? 'colang'
        : /^policies\/[^/]+\.policy\.json$/.test(f.name)
          ? 'policy'
          : undefined;
    if (!kind) {
      const other = documentKindOf(f.name);
      if (other === undefined) {
        skipped.push(f.name);
        continue;
      }
      // Rule sets, agents, settings and example suites: their own validators, references checked against
      // the folder's files (a folder holds no versions, so a pinned version is taken on trust here).
      const text = read(f);
      checked++;
      if (text === undefined) continue;
      if (other === 'examples') suiteTexts.set(f.name, text);
      const checkedDoc = validateDocument(f.name, text, { exists: (id) => names.has(id) });
      for (const p of checkedDoc.problems) problem(formatDiagnostic(f.name, p));
      for (const l of checkedDoc.lints) lint(formatDiagnostic(f.name, l));
      continue;
    }
    const text = read(f);
    checked++;
    if (text === undefined) continue;
    if (kind === 'policy') {
      const parsed = readJsonText(text);
      if (!parsed.ok) {
        problem(formatDiagnostic(f.name, parsed.diagnostic));
        continue;
      }
      const bindings = tools.map(({ name, action, amount }) => (amount ? { name, action, amount } : { name, action }));
      const result = validatePolicy(parsed.value, catalogue ? { tools: bindings } : {});
      for (const e of [...parsed.diagnostics, ...result.errors]) problem(formatDiagnostic(f.name, e));
      for (const w of result.warnings) lint(formatDiagnostic(f.name, w));
      if (parsed.diagnostics.length === 0 && result.errors.length === 0) soundPolicies.set(f.name, parsed.value);
      continue;
    }
    const result = compileRules(text, rulesKindOf(f.name) ?? kind, catalogue, f.name);
    if (!result.ok) for (const p of result.problems) problem(formatRefusal(f.name, p, kind === 'sheet' ? 'sheet' : 'policy'));
    else for (const l of result.lints) lint(formatLint(f.name, l));
  }
  // Each sound policy's example suite runs against it, as `tollgate policy test` runs one: an example that
  // does not hold is a problem, so a folder that verifies is one whose policies decide as their examples say.
  let examples = 0;
  let suites = 0;
  for (const [policyId, value] of soundPolicies) {
    const suiteId = exampleSuiteIdOf(policyId);
    const text = suiteId === undefined ? undefined : suiteTexts.get(suiteId);
    if (suiteId === undefined || text === undefined) continue;
    const suite = readExampleSuite(text);
    if (!suite.ok) continue; // its problems are listed above
    const report = runPolicyTests(new CompiledPolicy(value as PolicyDocument), suite.suite);
    suites++;
    examples += report.results.length;
    for (const r of report.results) {
      const expected = describeOutcome(r.expected);
      if (r.status === 'fail') {
        problem(`${suiteId}: EXAMPLE_FAILED: ${r.name}: expected ${expected}, got ${r.actual ? describeOutcome(r.actual) : 'nothing'}`);
      } else if (r.status === 'not_evaluable') {
        problem(`${suiteId}: EXAMPLE_NOT_EVALUABLE: ${r.name}: ${r.code}: the decision depends on arguments the example lacks`);
      }
    }
  }
  for (const name of skipped) io.stdout.write(`${name}: not a document verify checks yet; skipped\n`);
  const ran =
    examples > 0 ? `; ${examples} example${examples === 1 ? '' : 's'} run against ${suites} polic${suites === 1 ? 'y' : 'ies'}` : '';
  io.stdout.write(
    `verified ${checked} document${checked === 1 ? '' : 's'} in ${dir}: ${problems} problem${problems === 1 ? '' : 's'}, ${lints} lint${lints === 1 ? '' : 's'}${ran}\n`,
  );
  return problems > 0 ? EXIT_INVALID : EXIT_OK;
}

/** Every regular file under `dir`, never following links and never entering the .tollgate state folder. */
function listDocuments(dir: string): Found[] {
  const out: Found[] = [];
  const walk = (at: string) => {
    let entries: string[];
    try {
      entries = readdirSync(at).sort();
    } catch (err) {
      throw new CliError('UNREADABLE', `${at}: UNREADABLE: ${(err as NodeJS.ErrnoException).code ?? 'cannot be read'}`);
    }
    for (const entry of entries) {
      if (entry.startsWith('.')) continue;
      const path = join(at, entry);
      const stat = lstatSync(path);
      if (stat.isDirectory()) walk(path);
      else if (stat.isFile()) out.push({ path, name: relative(dir, path).split(sep).join('/') });
    }
  };
  walk(dir);
  return out;
}
