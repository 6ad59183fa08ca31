// Reads docs/quickstart.md as the quickstart test runs it: its ```sh blocks in order, each with how it runs (the HTML
// comment before it) and the output shown under it, and matches an output with `…` placeholders (docs/quickstart.md).

/** How a block runs: in the reader's one shell, as a server in a second terminal, or not at all (the install). */
export type BlockMode = 'run' | 'background' | 'not run';

export interface QuickstartBlock {
  /** 1-based line of the block's opening fence. */
  line: number;
  mode: BlockMode;
  /** Why a `<!-- quickstart: ... -->` comment marks the block, as written there. */
  note?: string;
  text: string;
  /** The fenced block right after it (blank lines between only); a block with none must print nothing. */
  expected: string;
}

const MARK = /^<!--\s*quickstart:\s*(background|not run)\b\s*(.*?)\s*-->\s*$/;
const FENCE = /^```(\S*)\s*$/;

/** The ```sh blocks of a markdown text, in order; a mark names its block, and a mark not followed by one is refused. */
export function quickstartBlocks(markdown: string): QuickstartBlock[] {
  const lines = markdown.split('\n');
  const blocks: QuickstartBlock[] = [];
  let mark: { mode: BlockMode; note: string; line: number } | undefined;
  let i = 0;
  const fenced = (from: number): { lang: string; body: string; end: number } => {
    const lang = FENCE.exec(lines[from] as string)?.[1] ?? '';
    let end = from + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end] as string)) end++;
    if (end >= lines.length) throw new Error(`docs/quickstart.md:${from + 1}: a fence that is never closed`);
    return { lang, body: lines.slice(from + 1, end).join('\n'), end };
  };
  while (i < lines.length) {
    const line = lines[i] as string;
    const marked = MARK.exec(line);
    if (marked) {
      if (mark) throw new Error(`docs/quickstart.md:${mark.line}: a quickstart mark with no sh block after it`);
      mark = { mode: marked[1] as BlockMode, note: (marked[2] ?? '').replace(/^\(|\)$/g, ''), line: i + 1 };
      i++;
      continue;
    }
    if (!FENCE.test(line)) {
      if (mark && line.trim() !== '')
        throw new Error(`docs/quickstart.md:${mark.line}: a quickstart mark must stand right before its sh block`);
      i++;
      continue;
    }
    const start = i;
    const block = fenced(i);
    i = block.end + 1;
    if (block.lang !== 'sh') {
      if (mark) throw new Error(`docs/quickstart.md:${mark.line}: a quickstart mark before a ${block.lang || 'plain'} block`);
      continue;
    }
    let next = i;
    while (next < lines.length && (lines[next] as string).trim() === '') next++;
    let expected = '';
    if (next < lines.length && FENCE.test(lines[next] as string) && FENCE.exec(lines[next] as string)?.[1] !== 'sh') {
      const output = fenced(next);
      expected = output.body;
      i = output.end + 1;
    }
    blocks.push({ line: start + 1, mode: mark?.mode ?? 'run', note: mark?.note, text: block.body, expected });
    mark = undefined;
  }
  if (mark) throw new Error(`docs/quickstart.md:${mark.line}: a quickstart mark with no sh block after it`);
  return blocks;
}

/** An output as a reader compares it: each line without its trailing blanks, no blank lines at either end. */
export function normaliseOutput(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/^\n+|\n+$/g, '');
}

/**
 * Whether `actual` is the `expected` output, `…` standing for any text within one line (never a line break).
 * `prefix`: the expected lines begin the output and more may follow (a server goes on writing).
 */
export function matchesOutput(actual: string, expected: string, prefix = false): boolean {
  const pattern = normaliseOutput(expected)
    .split('…')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^\\n]*');
  return new RegExp(`^${pattern}${prefix ? '' : '$'}`).test(normaliseOutput(actual));
}
