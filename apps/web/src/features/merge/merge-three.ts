// A line-based three-way merge: the changes each side made to the base, applied together; where both
// changed the same lines differently, both texts are kept between conflict markers for a person to pick.

export interface MergeResult {
  text: string;
  /** How many places both sides changed differently (each marked in `text`). */
  conflicts: number;
}

/** A run of base lines [start, end) that one side replaced with `lines`. */
interface Hunk {
  start: number;
  end: number;
  lines: string[];
}

/** A region of the base and the hunks of each side inside it. */
interface Group {
  start: number;
  end: number;
  mine: Hunk[];
  other: Hunk[];
}

export const CONFLICT_START = '<<<<<<< yours';
export const CONFLICT_MIDDLE = '=======';
export const CONFLICT_END = '>>>>>>> theirs';
// Beyond this many line pairs the LCS table is too large for a browser tab; the whole text is one change.
const MAX_CELLS = 4_000_000;

/**
 * Merges `yours` and `theirs`, both edited from `base`.
 *
 * @example
 * mergeThree('a\nb\nc', 'A\nb\nc', 'a\nb\nC') // { text: 'A\nb\nC', conflicts: 0 }
 */
export function mergeThree(base: string, yours: string, theirs: string): MergeResult {
  if (yours === theirs || theirs === base) return { text: yours, conflicts: 0 };
  if (yours === base) return { text: theirs, conflicts: 0 };
  const b = base.split('\n');
  const mine = hunks(b, yours.split('\n'));
  const other = hunks(b, theirs.split('\n'));
  const out: string[] = [];
  let conflicts = 0;
  let at = 0;
  let i = 0;
  let j = 0;
  while (i < mine.length || j < other.length) {
    const m = mine[i];
    const o = other[j];
    let group: Group;
    if (m !== undefined && o !== undefined && overlaps(m, o)) {
      // Both sides changed this region: gather every further hunk of either side that reaches into it.
      group = { start: Math.min(m.start, o.start), end: Math.max(m.end, o.end), mine: [m], other: [o] };
      i++;
      j++;
      for (;;) {
        const nm = mine[i];
        const no = other[j];
        if (nm !== undefined && nm.start < group.end) {
          group.mine.push(nm);
          group.end = Math.max(group.end, nm.end);
          i++;
        } else if (no !== undefined && no.start < group.end) {
          group.other.push(no);
          group.end = Math.max(group.end, no.end);
          j++;
        } else break;
      }
    } else if (m !== undefined && (o === undefined || comesFirst(m, o))) {
      group = { start: m.start, end: m.end, mine: [m], other: [] };
      i++;
    } else {
      const only = o as Hunk;
      group = { start: only.start, end: only.end, mine: [], other: [only] };
      j++;
    }
    out.push(...b.slice(at, group.start));
    const ours = apply(b, group.start, group.end, group.mine);
    const theirsLines = apply(b, group.start, group.end, group.other);
    if (group.other.length === 0 || ours.join('\n') === theirsLines.join('\n')) out.push(...ours);
    else if (group.mine.length === 0) out.push(...theirsLines);
    else {
      conflicts++;
      out.push(CONFLICT_START, ...ours, CONFLICT_MIDDLE, ...theirsLines, CONFLICT_END);
    }
    at = group.end;
  }
  out.push(...b.slice(at));
  return { text: out.join('\n'), conflicts };
}

/** Whether a text still holds a conflict marker line. */
export function hasConflictMarkers(text: string): boolean {
  return text.split('\n').some((line) => line === CONFLICT_START || line === CONFLICT_MIDDLE || line.startsWith(CONFLICT_END));
}

/** Two changes overlap when they replace common base lines, or insert at the same place, or one inserts inside the other. */
function overlaps(a: Hunk, b: Hunk): boolean {
  if (a.start === a.end && b.start === b.end) return a.start === b.start;
  if (a.start === a.end) return b.start < a.start && a.start < b.end;
  if (b.start === b.end) return a.start < b.start && b.start < a.end;
  return Math.max(a.start, b.start) < Math.min(a.end, b.end);
}

/** Of two changes that do not overlap, whether `a` goes first: it starts earlier, or inserts where `b` starts. */
function comesFirst(a: Hunk, b: Hunk): boolean {
  return a.start < b.start || (a.start === b.start && a.start === a.end);
}

/** The base lines [start, end) with one side's hunks inside that region applied. */
function apply(base: string[], start: number, end: number, side: Hunk[]): string[] {
  const out: string[] = [];
  let at = start;
  for (const h of side) {
    out.push(...base.slice(at, h.start), ...h.lines);
    at = h.end;
  }
  out.push(...base.slice(at, end));
  return out;
}

/** The changes that turn `base` into `side`, from a longest common subsequence of lines. */
function hunks(base: string[], side: string[]): Hunk[] {
  let prefix = 0;
  while (prefix < base.length && prefix < side.length && base[prefix] === side[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < base.length - prefix &&
    suffix < side.length - prefix &&
    base[base.length - 1 - suffix] === side[side.length - 1 - suffix]
  )
    suffix++;
  const a = base.slice(prefix, base.length - suffix);
  const b = side.slice(prefix, side.length - suffix);
  if (a.length === 0 && b.length === 0) return [];
  const pairs = a.length * b.length > MAX_CELLS ? [] : commonLines(a, b);
  const out: Hunk[] = [];
  let ai = 0;
  let bi = 0;
  for (const [pa, pb] of [...pairs, [a.length, b.length] as const]) {
    if (pa > ai || pb > bi) out.push({ start: prefix + ai, end: prefix + pa, lines: b.slice(bi, pb) });
    ai = pa + 1;
    bi = pb + 1;
  }
  return out;
}

/** Index pairs of a longest common subsequence of two line lists, in order. */
function commonLines(a: string[], b: string[]): (readonly [number, number])[] {
  const width = b.length + 1;
  const table = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * width + j] =
        a[i] === b[j]
          ? (table[(i + 1) * width + j + 1] as number) + 1
          : Math.max(table[(i + 1) * width + j] as number, table[i * width + j + 1] as number);
    }
  }
  const pairs: (readonly [number, number])[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if ((table[(i + 1) * width + j] as number) >= (table[i * width + j + 1] as number)) i++;
    else j++;
  }
  return pairs;
}
