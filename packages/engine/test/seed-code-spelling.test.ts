// The codes the seeds name are spelled as the seeds spell them wherever the repository says them: in code, tests,
// docs and the console. A respelling anywhere (the sheet refusal in capitals, a policy code in lower case)
// fails here with its file and line. The list is the registry's (SEED_CODES), so a code marked there is watched.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEED_CODES } from '../src/codes/index.ts';

const root = join(import.meta.dirname, '../../..');
const TEXT = /\.(?:ts|tsx|mjs|js|json|md|yaml|yml|co|txt|out|html|css)$/;

/**
 * Lines where another spelling is another thing, with why: the explanation's `decided_by` is a field whose
 * values are lower case beside `rule` and `default` (docs/policy.md, "Explanations").
 */
function allowed(line: string): boolean {
  return line.includes('decided_by');
}

function trackedTextFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
  return out.split('\n').filter((f) => TEXT.test(f) && !f.startsWith('package-lock') && !f.includes('node_modules/'));
}

describe("the seeds' codes, spelled as the seeds spell them", () => {
  it('finds no other spelling of any of them in the repository', () => {
    const codes = SEED_CODES.map((c) => c.code);
    expect(codes.length).toBeGreaterThan(10);
    const pattern = new RegExp(`\\b(?:${codes.join('|')})\\b`, 'gi');
    const exact = new Set(codes);
    const respelled: string[] = [];
    for (const file of trackedTextFiles()) {
      let text: string;
      try {
        text = readFileSync(join(root, file), 'utf8');
      } catch {
        continue; // removed from the working tree but not yet from the index
      }
      text.split('\n').forEach((line, i) => {
        for (const m of line.matchAll(pattern)) {
          if (!exact.has(m[0]) && !allowed(line)) respelled.push(`${file}:${i + 1}: ${m[0]}`);
        }
      });
    }
    expect(respelled).toEqual([]);
  });
});
