// The rule sheet reader: the YAML subset of docs/rule-sheets.md enforced on the yaml package's syntax tree
// (read-whole.ts), with a fast path for the console that re-reads only the rules a keystroke changed.
import { isSeq, LineCounter, type Node, parseAllDocuments } from 'yaml';
import { readRule } from './read-rule.ts';
import { readWhole } from './read-whole.ts';
import type { SheetReadResult, SheetRule } from './sheet-model.ts';

export * from './sheet-model.ts';

/**
 * Reads a rule sheet, enforcing its subset of YAML.
 *
 * @example
 * readSheet('rules:\n  - action: delete_customer\n    never: true\n')
 * // { ok: true, sheet: { rules: [{ action: 'delete_customer', line: 2, never: true }], line: 1 } }
 */
export function readSheet(text: string, cache?: SheetCache): SheetReadResult {
  if (cache) {
    const fast = readByRules(text, cache);
    if (fast) return fast;
  }
  return readWhole(text);
}

/**
 * Rules already read, by their text: the console compiles on every keystroke, and a keystroke changes
 * one rule, so only that rule goes through the YAML parser again.
 */
export interface SheetCache {
  rules: Map<string, SheetRule | null>;
}

const MAX_CACHED_RULES = 4096;

export function createSheetCache(): SheetCache {
  return { rules: new Map() };
}

const BLANK_OR_COMMENT = /^\s*(?:#.*)?$/;
const RULES_LINE = /^rules:(?:\s+#.*|\s*)$/;
const FIRST_ITEM = /^( *)- /;
const DOCUMENT_MARKER = /^\s*(?:---|\.\.\.)/;

/**
 * The fast path: splits a sheet of the plain shape (comments, `rules:`, then `- action:` items at one
 * indentation) into its rules and reads each on its own, from the cache when its text is unchanged.
 * Returns undefined, and the whole text is read instead, for any other shape or any problem: refusals
 * always come from reading the whole sheet, so they are the same with or without a cache.
 */
function readByRules(text: string, cache: SheetCache): SheetReadResult | undefined {
  if (text.includes('\t') || text.includes('\r')) return undefined;
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length && BLANK_OR_COMMENT.test(lines[i] as string)) i++;
  // A # starts a comment only after a space: `rules:#` is not `rules:`.
  if (!RULES_LINE.test(lines[i] ?? '')) return undefined;
  const rulesLine = i + 1;
  i++;
  while (i < lines.length && BLANK_OR_COMMENT.test(lines[i] as string)) i++;
  const first = FIRST_ITEM.exec(lines[i] ?? '');
  if (!first) return undefined;
  const indent = (first[1] as string).length;
  const item = `${' '.repeat(indent)}- `;
  const deeper = ' '.repeat(indent + 1);
  // offsets[k] is where line k starts in the text, so a rule's text is one slice of it.
  const offsets: number[] = [];
  let offset = 0;
  for (const line of lines) {
    offsets.push(offset);
    offset += line.length + 1;
  }
  const starts: number[] = [];
  for (let k = i; k < lines.length; k++) {
    const line = lines[k] as string;
    if (line.startsWith(item)) starts.push(k);
    // Anything else sits deeper than the items or is blank or a comment, or the shape is not the plain
    // one. (Deeper lines, the most common, are tested first; no blank or comment line is a marker.)
    else if (line.startsWith(deeper)) {
      if (DOCUMENT_MARKER.test(line)) return undefined;
    } else if (!BLANK_OR_COMMENT.test(line)) return undefined;
  }
  const rules: SheetRule[] = [];
  const seen = new Set<string>();
  for (let n = 0; n < starts.length; n++) {
    const from = starts[n] as number;
    const to = starts[n + 1] ?? lines.length;
    // The lines from..to-1 joined by \n (the text holds no \r here).
    const chunk = text.slice(offsets[from], (offsets[to] ?? text.length + 1) - 1);
    let rule = cache.rules.get(chunk);
    if (rule === undefined) {
      rule = readOneRule(chunk);
      if (cache.rules.size >= MAX_CACHED_RULES) cache.rules.clear();
      cache.rules.set(chunk, rule);
    }
    if (rule === null || seen.has(rule.action)) return undefined;
    seen.add(rule.action);
    rules.push({ ...rule, line: rule.line + from });
  }
  return { ok: true, sheet: { rules, line: rulesLine } };
}

/** Reads one rule's text (lines counted from 1 at its start); null when it has any problem. */
function readOneRule(chunk: string): SheetRule | null {
  const lines = new LineCounter();
  const docs = parseAllDocuments(chunk, { lineCounter: lines, uniqueKeys: false, prettyErrors: false });
  const doc = Array.isArray(docs) && docs.length === 1 ? docs[0] : undefined;
  if (!doc || doc.errors.length > 0 || !isSeq(doc.contents) || doc.contents.flow || doc.contents.items.length !== 1) return null;
  let problems = 0;
  const read = readRule(
    doc.contents.items[0] as Node | null,
    (offset) => lines.linePos(offset ?? 0).line,
    () => {
      problems++;
    },
  );
  return read && problems === 0 ? read.rule : null;
}
