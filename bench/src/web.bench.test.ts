// readChunks: which of the console's chunks load before any lazy import, and their gzip sizes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readChunks } from './web.bench.ts';

describe('readChunks', () => {
  let dist = '';
  afterEach(() => rmSync(dist, { recursive: true, force: true }));

  it('counts the entry, its preloads and their static imports as initial, and dynamic imports as lazy', () => {
    dist = mkdtempSync(join(tmpdir(), 'tollgate-chunks-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(
      join(dist, 'index.html'),
      '<script type="module" crossorigin src="/assets/index-AAAAAAAA.js"></script>\n<link rel="modulepreload" crossorigin href="/assets/react-BBBBBBBB.js">\n',
    );
    const files: Record<string, string> = {
      'index-AAAAAAAA.js': 'import{a as b}from"./shared-CCCCCCCC.js";const p=()=>import("./editor-DDDDDDDD.js");',
      'react-BBBBBBBB.js': 'export const r=1;',
      'shared-CCCCCCCC.js': `import"./style-EEEEEEEE.js";export const a=${'1+'.repeat(500)}1;`,
      'style-EEEEEEEE.js': 'export{};',
      'editor-DDDDDDDD.js': 'import{a}from"./shared-CCCCCCCC.js";export default a;',
    };
    for (const [name, code] of Object.entries(files)) writeFileSync(join(dist, 'assets', name), code);

    const chunks = readChunks(dist);
    const initial = chunks.filter((c) => c.initial).map((c) => c.name);
    expect(initial.sort()).toEqual(['index-AAAAAAAA.js', 'react-BBBBBBBB.js', 'shared-CCCCCCCC.js', 'style-EEEEEEEE.js']);
    expect(chunks.find((c) => c.name === 'editor-DDDDDDDD.js')).toMatchObject({ initial: false });
    // gzip shrinks the repetitive chunk well below its length.
    const shared = chunks.find((c) => c.name === 'shared-CCCCCCCC.js');
    expect(shared?.gzip).toBeGreaterThan(20);
    expect(shared?.gzip).toBeLessThan(files['shared-CCCCCCCC.js']?.length ?? 0);
  });
});
