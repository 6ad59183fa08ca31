// The Node version the README states is the one npm holds us to: the root engines field says the same, and
// no package the lock file installs declares an engines.node range that leaves that version out (npm would
// warn EBADENGINE on it, and the package may not run there).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// semver is npm's own reading of a range (a root devDependency; it ships no types of its own).
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string, options?: { includePrerelease?: boolean }): boolean;
};
const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
const readme = read('README.md');
const contributing = read('CONTRIBUTING.md');
const rootPackage = JSON.parse(read('package.json')) as { engines?: { node?: string } };
const lock = JSON.parse(read('package-lock.json')) as {
  packages: Record<string, { version?: string; engines?: Record<string, string> | string[] }>;
};

/** "Node 20.19 or newer" in a page, as the version 20.19.0. */
function statedMinimum(page = readme): string {
  const stated = /\bNode (\d+)\.(\d+) or newer\b/.exec(page);
  if (!stated) throw new Error('no "Node X.Y or newer" stated');
  return `${stated[1]}.${stated[2]}.0`;
}

/** A lock entry's engines.node range; very old packages wrote engines as a list of "node >= x" strings. */
function nodeRange(engines: Record<string, string> | string[] | undefined): string | undefined {
  if (Array.isArray(engines)) return engines.find((e) => /^node\b/.test(e))?.replace(/^node\s*/, '');
  return engines?.node;
}

describe('the stated Node version', () => {
  it('is the same in CONTRIBUTING.md', () => {
    expect(statedMinimum(contributing)).toBe(statedMinimum());
  });

  it('is the root package.json engines field', () => {
    expect(rootPackage.engines?.node).toBe(`>=${statedMinimum().replace(/\.0$/, '')}`);
  });

  it('is within every engines.node range of package-lock.json', () => {
    const minimum = statedMinimum();
    const excluding = Object.entries(lock.packages)
      .map(([path, entry]) => ({ path, version: entry.version, node: nodeRange(entry.engines) }))
      .filter((p) => p.node !== undefined && !semver.satisfies(minimum, p.node, { includePrerelease: true }));
    expect(excluding).toEqual([]);
  });

  it('is read by the check above (a range that leaves it out is caught)', () => {
    expect(semver.satisfies(statedMinimum(), '>=22.12.0')).toBe(false);
    expect(semver.satisfies(statedMinimum(), nodeRange(['node >= 0.8']) as string)).toBe(true);
  });
});
