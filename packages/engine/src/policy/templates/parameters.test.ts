// Template parameters: normalisation, and every refusal with its code and path.
import { describe, expect, it } from 'vitest';
import { createFromTemplate } from './index.ts';
import type { TemplateResult } from './types.ts';

function problems(result: TemplateResult): { code: string; path: string | undefined }[] {
  if (result.ok) throw new Error('expected errors, got a draft');
  for (const e of result.errors) {
    expect(e.severity).toBe('error');
    expect(e.message).not.toBe('');
  }
  return result.errors.map(({ code, path }) => ({ code, path }));
}

describe('normalisation', () => {
  it('"100.00" and "100" give the identical draft', () => {
    const a = createFromTemplate('support-refunds', { auto_limit: '100.00', approval_limit: '1000.000' });
    const b = createFromTemplate('support-refunds', { auto_limit: '100', approval_limit: '1000' });
    const c = createFromTemplate('support-refunds');
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(a)).toBe(JSON.stringify(c));
    if (!a.ok) throw new Error('draft expected');
    expect(a.document.rules[2]?.amount).toEqual({ currency: 'USD', gt: '100', lte: '1000' });
    expect(a.parameters.auto_limit).toBe('100');
  });

  it('fraction zeros are trimmed, significant ones kept', () => {
    const a = createFromTemplate('payouts-with-dual-limits', { auto_limit: '0.50', approval_limit: '12.340000000000000000' });
    if (!a.ok) throw new Error('draft expected');
    expect(a.document.rules[0]?.amount).toEqual({ currency: 'USD', gt: '12.34' });
    expect(a.document.rules[2]?.amount).toEqual({ currency: 'USD', lte: '0.5' });
  });

  it('patterns are trimmed and de-duplicated in order', () => {
    const a = createFromTemplate('read-only', { read_actions: ' docs.read , docs.search,docs.read' });
    if (!a.ok) throw new Error('draft expected');
    expect(a.document.rules[0]?.actions).toEqual(['docs.read', 'docs.search']);
    expect(a.parameters.read_actions).toBe('docs.read,docs.search');
  });
});

describe('PARAMETER_ORDER', () => {
  it('refuses equal limits, even when written differently', () => {
    expect(problems(createFromTemplate('support-refunds', { auto_limit: '500', approval_limit: '500.0' }))).toEqual([
      { code: 'PARAMETER_ORDER', path: '/params/auto_limit' },
    ]);
  });

  it('refuses reversed limits', () => {
    expect(problems(createFromTemplate('payouts-with-dual-limits', { auto_limit: '9000', approval_limit: '10' }))).toEqual([
      { code: 'PARAMETER_ORDER', path: '/params/auto_limit' },
    ]);
  });

  it('points at the upper limit when only it was given', () => {
    expect(problems(createFromTemplate('support-refunds', { approval_limit: '100' }))).toEqual([
      { code: 'PARAMETER_ORDER', path: '/params/approval_limit' },
    ]);
  });

  it('points at the lower limit when only it was given', () => {
    expect(problems(createFromTemplate('support-refunds', { auto_limit: '5000' }))).toEqual([
      { code: 'PARAMETER_ORDER', path: '/params/auto_limit' },
    ]);
  });

  it('is not reported when a limit is itself invalid', () => {
    expect(problems(createFromTemplate('support-refunds', { auto_limit: '5000', approval_limit: 'lots' }))).toEqual([
      { code: 'INVALID_PARAMETER', path: '/params/approval_limit' },
    ]);
  });
});

describe('UNKNOWN_PARAMETER and UNKNOWN_TEMPLATE', () => {
  it('refuses a parameter the template does not have', () => {
    expect(problems(createFromTemplate('read-only', { currency: 'USD' }))).toEqual([
      { code: 'UNKNOWN_PARAMETER', path: '/params/currency' },
    ]);
  });

  it('escapes the parameter name in the path', () => {
    expect(problems(createFromTemplate('read-only', { 'a/b~c': '1' }))).toEqual([{ code: 'UNKNOWN_PARAMETER', path: '/params/a~1b~0c' }]);
  });

  it('does not take inherited names for parameters', () => {
    expect(problems(createFromTemplate('read-only', { constructor: 'x' }))).toEqual([
      { code: 'UNKNOWN_PARAMETER', path: '/params/constructor' },
    ]);
  });

  it('refuses an unknown template at /template', () => {
    const result = createFromTemplate('support-refund', {});
    expect(problems(result)).toEqual([{ code: 'UNKNOWN_TEMPLATE', path: '/template' }]);
    if (!result.ok) expect(result.errors[0]?.message).toContain('support-refunds');
  });
});

describe('INVALID_PARAMETER', () => {
  const cases: [string, string, string][] = [
    ['support-refunds', 'currency', 'usd'],
    ['support-refunds', 'currency', 'US'],
    ['support-refunds', 'currency', 'USDT'],
    ['support-refunds', 'auto_limit', '-5'],
    ['support-refunds', 'auto_limit', '1e3'],
    ['support-refunds', 'auto_limit', ''],
    ['support-refunds', 'auto_limit', ' 5'],
    ['support-refunds', 'auto_limit', '05'],
    ['support-refunds', 'auto_limit', '5.'],
    ['support-refunds', 'auto_limit', '0.1234567890123456789'],
    ['support-refunds', 'approval_limit', '1000000000000000.000000000000000001'],
    ['support-refunds', 'approval_limit', '1000000000000001'],
    ['support-refunds', 'approval_ttl_seconds', '59'],
    ['support-refunds', 'approval_ttl_seconds', '2592001'],
    ['support-refunds', 'approval_ttl_seconds', '1e4'],
    ['support-refunds', 'approval_ttl_seconds', '3600.0'],
    ['support-refunds', 'approval_ttl_seconds', '03600'],
    ['support-refunds', 'approval_ttl_seconds', '99999999999999999999'],
    ['read-only', 'read_actions', 'Orders.read'],
    ['read-only', 'read_actions', '*'],
    ['read-only', 'read_actions', 'tollgate.audit'],
    ['read-only', 'read_actions', 'orders.read,,orders.search'],
    ['read-only', 'read_actions', 'orders.*.read'],
    ['read-only', 'read_actions', ''],
    ['support-refunds', 'read_actions', 'refund.*'],
    ['support-refunds', 'read_actions', 'payouts.read'],
    ['deploys-with-approval', 'rollback_actions', 'deploy.run'],
    ['deploys-with-approval', 'deploy_actions', 'secrets.rotate'],
    ['deploys-with-approval', 'deploy_actions', 'deploy.status'],
  ];
  for (const [template, name, value] of cases) {
    it(`${template}: ${name}=${JSON.stringify(value)}`, () => {
      expect(problems(createFromTemplate(template, { [name]: value }))).toEqual([{ code: 'INVALID_PARAMETER', path: `/params/${name}` }]);
    });
  }

  it('points at the parameter that was given when two pattern parameters overlap', () => {
    expect(problems(createFromTemplate('deploys-with-approval', { deploy_actions: 'deploy.*', read_actions: 'status.read' }))).toEqual([
      { code: 'INVALID_PARAMETER', path: '/params/deploy_actions' },
    ]);
    expect(
      problems(
        createFromTemplate('deploys-with-approval', { deploy_actions: 'deploy.*', read_actions: 'deploy.status', rollback_actions: 'x.y' }),
      ),
    ).toEqual([{ code: 'INVALID_PARAMETER', path: '/params/read_actions' }]);
  });

  it('reports each overlap of a pattern: deploy.* for reads overlaps both deploys and rollbacks', () => {
    const result = createFromTemplate('deploys-with-approval', { read_actions: 'deploy.*' });
    expect(problems(result)).toEqual([
      { code: 'INVALID_PARAMETER', path: '/params/read_actions' },
      { code: 'INVALID_PARAMETER', path: '/params/read_actions' },
    ]);
    if (!result.ok)
      expect(result.errors.map((e) => e.message.split(',')[0])).toEqual([
        '"deploy.*" overlaps "deploy.run"',
        '"deploy.*" overlaps "deploy.rollback"',
      ]);
  });

  it('refuses more than 64 patterns', () => {
    const many = Array.from({ length: 65 }, (_, i) => `docs.read${i}`).join(',');
    expect(problems(createFromTemplate('read-only', { read_actions: many }))).toEqual([
      { code: 'INVALID_PARAMETER', path: '/params/read_actions' },
    ]);
  });

  it('suggests the uppercase code for a lowercase currency', () => {
    const result = createFromTemplate('payouts-with-dual-limits', { currency: 'eur' });
    expect(problems(result)).toEqual([{ code: 'INVALID_PARAMETER', path: '/params/currency' }]);
    if (!result.ok) expect(result.errors[0]?.message).toContain('such as EUR');
  });

  it('refuses a value that is not text', () => {
    const params = { auto_limit: 5 } as unknown as Record<string, string>;
    expect(problems(createFromTemplate('support-refunds', params))).toEqual([{ code: 'INVALID_PARAMETER', path: '/params/auto_limit' }]);
  });

  it('accepts the edges: 60 and 2592000 seconds, 0 and 10^15', () => {
    const edges: Record<string, string>[] = [
      { approval_ttl_seconds: '60', auto_limit: '0' },
      { approval_ttl_seconds: '2592000', approval_limit: '1000000000000000' },
    ];
    for (const params of edges) {
      expect(createFromTemplate('support-refunds', params).ok).toBe(true);
    }
  });
});

describe('every problem at once', () => {
  it('reports unknown, invalid and misordered parameters together, in a stable order', () => {
    const result = createFromTemplate('support-refunds', {
      bogus: '1',
      currency: 'usd',
      auto_limit: '-5',
      approval_ttl_seconds: '10',
      read_actions: 'Bad,worse.*.x',
    });
    expect(problems(result)).toEqual([
      { code: 'UNKNOWN_PARAMETER', path: '/params/bogus' },
      { code: 'INVALID_PARAMETER', path: '/params/currency' },
      { code: 'INVALID_PARAMETER', path: '/params/auto_limit' },
      { code: 'INVALID_PARAMETER', path: '/params/approval_ttl_seconds' },
      { code: 'INVALID_PARAMETER', path: '/params/read_actions' },
      { code: 'INVALID_PARAMETER', path: '/params/read_actions' },
    ]);
  });

  it('reports an order problem beside an invalid value of another parameter', () => {
    expect(problems(createFromTemplate('payouts-with-dual-limits', { currency: 'eur', auto_limit: '10', approval_limit: '1' }))).toEqual([
      { code: 'INVALID_PARAMETER', path: '/params/currency' },
      { code: 'PARAMETER_ORDER', path: '/params/auto_limit' },
    ]);
  });
});
