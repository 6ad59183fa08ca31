// tollgate policy template: list, show, create with parameters; drafts validate and their examples pass.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, workspace } from './cli-harness.ts';

describe('tollgate policy template', () => {
  it('lists the four templates', async () => {
    const run = await runCli('policy', 'template', 'list', '--json');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).map((t: { name: string }) => t.name)).toEqual([
      'support-refunds',
      'read-only',
      'deploys-with-approval',
      'payouts-with-dual-limits',
    ]);
  });

  it('shows a template with its parameters, notes, delegation hint and examples', async () => {
    const run = await runCli('policy', 'template', 'show', 'payouts-with-dual-limits', '--json');
    expect(run.code).toBe(0);
    const shown = JSON.parse(run.stdout);
    expect(shown.parameters.map((p: { name: string }) => p.name)).toContain('approval_limit');
    expect(shown.delegation.max_amount).toEqual({ value: '5000', currency: 'USD' });
    expect(Object.keys(shown.notes)).toEqual(shown.document.rules.map((r: { id: string }) => r.id));
  });

  it('creates a draft whose examples pass with tollgate policy test, normalising amounts', async () => {
    const w = workspace();
    const out = join(w.dir, 'refunds.policy.json');
    const examples = join(w.dir, 'refunds.examples.json');
    const run = await runCli(
      'policy',
      'template',
      'create',
      'support-refunds',
      '--param',
      'currency=EUR',
      '--param',
      'auto_limit=50.00',
      '--out',
      out,
      '--examples-out',
      examples,
    );
    expect(run.code).toBe(0);
    const doc = JSON.parse(readFileSync(out, 'utf8'));
    expect(doc.rules.find((r: { id: string }) => r.id === 'refund-auto').amount).toEqual({ currency: 'EUR', lte: '50' });
    expect((await runCli('policy', 'validate', out)).code).toBe(0);
    const test = await runCli('policy', 'test', out, '--examples', examples);
    expect(test.code).toBe(0);
    expect(test.stdout).toMatch(/\d+ examples passed, 0 failed, 0 not evaluable/);
  });

  it('refuses reversed limits and unknown parameters with their codes and exit 1, writing nothing', async () => {
    const w = workspace();
    const out = join(w.dir, 'p.json');
    const run = await runCli(
      'policy',
      'template',
      'create',
      'support-refunds',
      '--param',
      'auto_limit=1000',
      '--param',
      'frob=1',
      '--out',
      out,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('PARAMETER_ORDER at /params/auto_limit');
    expect(run.stderr).toContain('UNKNOWN_PARAMETER at /params/frob');
    expect(existsSync(out)).toBe(false);
    expect((await runCli('policy', 'template', 'create', 'nope')).stderr).toContain('UNKNOWN_TEMPLATE');
  });

  it('keeps an existing file unless --force', async () => {
    const w = workspace();
    const out = join(w.dir, 'p.json');
    writeFileSync(out, 'mine');
    const run = await runCli('policy', 'template', 'create', 'read-only', '--out', out);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('FILE_EXISTS');
    expect(readFileSync(out, 'utf8')).toBe('mine');
    expect((await runCli('policy', 'template', 'create', 'read-only', '--out', out, '--force')).code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).default).toBe('deny');
  });

  it('prints the draft to stdout without --out, and refuses a malformed --param', async () => {
    const run = await runCli('policy', 'template', 'create', 'read-only');
    expect(JSON.parse(run.stdout).schema).toBe('tollgate/policy@1');
    expect((await runCli('policy', 'template', 'create', 'read-only', '--param', 'novalue')).code).toBe(2);
  });
});
