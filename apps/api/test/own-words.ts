// What a file of the repository says in its own words, line by line, for the comments test
// (repo-comments.test.ts): the comments of a script, a stylesheet or a YAML file, and the whole text of a
// Markdown page. Strings and data are left out, so a file name in a string or a YAML value is not a citation.
// Small scanners, not parsers: each knows only what tells a comment from the rest in its kind of file.

/** One line of a file's own words: its 1-based line number and its text. */
export interface OwnLine {
  line: number;
  text: string;
}

/** The character before a `/` after which a `/` opens a regular expression rather than a division. */
const BEFORE_REGEX = new Set(['', '(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^']);

/** The lines of `source.slice(start, end)`, the first of them line `startLine`. */
function linesOf(source: string, start: number, end: number, startLine: number): OwnLine[] {
  return source
    .slice(start, end)
    .split('\n')
    .map((text, k) => ({ line: startLine + k, text }));
}

/**
 * The comment text of a TypeScript or JavaScript file, line by line: `//` tails and the lines of `/* *\/`
 * blocks. Strings, template literals and regular expressions are skipped, so a `//` inside one is not a
 * comment. A template's `${}` holding a backtick is not followed.
 */
export function commentLines(source: string): OwnLine[] {
  const out: OwnLine[] = [];
  let line = 1;
  let i = 0;
  let lastSignificant = '';
  const n = source.length;
  while (i < n) {
    const c = source[i] ?? '';
    const next = source[i + 1];
    if (c === '\n') {
      line++;
      i++;
    } else if (c === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      const stop = end === -1 ? n : end;
      out.push(...linesOf(source, i + 2, stop, line));
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end;
      out.push(...linesOf(source, i + 2, stop, line));
      line += source.slice(i, stop).split('\n').length - 1;
      i = stop + 2;
    } else if (c === "'" || c === '"' || c === '`') {
      i++;
      while (i < n && source[i] !== c) {
        if (source[i] === '\\') i++;
        else if (source[i] === '\n') {
          line++;
          if (c !== '`') break;
        }
        i++;
      }
      i++;
      lastSignificant = c;
    } else if (c === '/' && BEFORE_REGEX.has(lastSignificant)) {
      i++;
      let inClass = false;
      while (i < n && source[i] !== '\n' && (inClass || source[i] !== '/')) {
        if (source[i] === '\\') i++;
        else if (source[i] === '[') inClass = true;
        else if (source[i] === ']') inClass = false;
        i++;
      }
      i++;
      lastSignificant = 'x';
    } else {
      if (!/\s/.test(c)) lastSignificant = /[\w$)\]]/.test(c) ? 'x' : c;
      i++;
    }
  }
  return out;
}

/** The comment text of a stylesheet: the lines of its `/* *\/` blocks (CSS has no `//` comment); strings skipped. */
export function cssCommentLines(source: string): OwnLine[] {
  const out: OwnLine[] = [];
  let line = 1;
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i] ?? '';
    if (c === '\n') {
      line++;
      i++;
    } else if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end;
      out.push(...linesOf(source, i + 2, stop, line));
      line += source.slice(i, stop).split('\n').length - 1;
      i = stop + 2;
    } else if (c === "'" || c === '"') {
      i++;
      while (i < n && source[i] !== c && source[i] !== '\n') i += source[i] === '\\' ? 2 : 1;
      i++;
    } else {
      i++;
    }
  }
  return out;
}

/** A line that opens a block scalar (`key: |`, `- >-`): the lines indented under it are its text, not YAML. */
const BLOCK_SCALAR = /(?:^|[\s:-])[|>][-+0-9]*\s*$/;

/**
 * The comment text of a YAML file: what follows a `#` that starts the line or follows a space, outside a
 * quoted scalar and outside a block scalar's text (a `#` there is the value's, as in a Colang flow).
 */
export function yamlCommentLines(source: string): OwnLine[] {
  const out: OwnLine[] = [];
  /** The indentation of the line that opened the block scalar being read, if one is. */
  let blockParent: number | undefined;
  source.split('\n').forEach((text, k) => {
    const indent = text.length - text.trimStart().length;
    if (blockParent !== undefined) {
      if (text.trim() === '' || indent > blockParent) return;
      blockParent = undefined;
    }
    let quote: string | undefined;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (quote !== undefined) {
        if (quote === "'" && c === "'" && text[i + 1] === "'") i++;
        else if (quote === '"' && c === '\\') i++;
        else if (c === quote) quote = undefined;
      } else if ((c === "'" || c === '"') && (i === 0 || /[\s:,[{-]/.test(text[i - 1] ?? ''))) {
        quote = c;
      } else if (c === '#' && (i === 0 || /\s/.test(text[i - 1] ?? ''))) {
        out.push({ line: k + 1, text: text.slice(i + 1) });
        if (BLOCK_SCALAR.test(text.slice(0, i))) blockParent = indent;
        return;
      }
    }
    if (BLOCK_SCALAR.test(text)) blockParent = indent;
  });
  return out;
}

/** Every line of a Markdown page: its prose is its own words, as a comment is a script's. */
export function markdownLines(source: string): OwnLine[] {
  return source.split('\n').map((text, k) => ({ line: k + 1, text }));
}

/** The kinds of file whose own words are read, each with its scanner. */
const SCANNERS: [RegExp, (source: string) => OwnLine[]][] = [
  [/\.(ts|tsx|mts|cts|js|mjs|cjs)$/, commentLines],
  [/\.css$/, cssCommentLines],
  [/\.ya?ml$/, yamlCommentLines],
  [/\.md$/, markdownLines],
];

/** The scanner of `path`'s kind of file, or undefined for a kind that has no words of its own (JSON, data). */
export function scannerOf(path: string): ((source: string) => OwnLine[]) | undefined {
  return SCANNERS.find(([kind]) => kind.test(path))?.[1];
}
