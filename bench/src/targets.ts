// The targets of docs/performance.md, checked against the figures of one run: met, missed, or not
// measured. Figures only; a missed target is reported, never a failure.
import type { Figure } from './measure.ts';

interface Target {
  target: string;
  /** The figure's exact name, or a test on it. */
  figure: string | ((name: string) => boolean);
  stat: 'median' | 'p95';
  at: 'most' | 'least';
  limit: number;
}

const TARGETS: Target[] = [
  ...(['diff over the catalogue', 'decision map', 'impact preview'] as const).map(
    (what): Target => ({
      target: `review of a 300-rule policy with 10 argument paths: ${what} < 1 s`,
      figure: `review 300 rules × 10 paths: ${what}`,
      stat: 'median',
      at: 'most',
      limit: 1000,
    }),
  ),
  {
    target: 'tollgate policy validate starts and answers in ≤ 150 ms',
    figure: 'policy validate: tollgate (bin, bundle fresh)',
    stat: 'median',
    at: 'most',
    limit: 150,
  },
  { target: 'refunds p50 ≤ 0.5 µs per decision', figure: 'refunds: engine per decision', stat: 'median', at: 'most', limit: 0.5 },
  {
    target: 'refunds ≥ 3× the reference evaluator',
    figure: 'refunds: engine / reference evaluator',
    stat: 'median',
    at: 'least',
    limit: 3,
  },
  {
    target: 'refunds ≥ 100× Cedar-wasm (policies loaded once)',
    figure: 'peers refunds: engine / Cedar, policies loaded once',
    stat: 'median',
    at: 'least',
    limit: 100,
  },
  { target: '300-rule policy p50 ≤ 2 µs per decision', figure: '300 rules: engine per decision', stat: 'median', at: 'most', limit: 2 },
  {
    target: 'sheet compile + lint (200 rules, 300 tools) p95 ≤ 5 ms',
    figure: (n) => n.startsWith('compile + lint a 200-rule sheet'),
    stat: 'p95',
    at: 'most',
    limit: 5,
  },
  { target: 'validate a 300-rule policy ≤ 5 ms', figure: 'validate a 300-rule policy', stat: 'median', at: 'most', limit: 5 },
  // Against the framework with the gate's own middleware and no decision (the api suite's contender): bare Hono
  // without the body limit and key check is a ceiling no route of the API reaches (docs/performance.md, "API gate").
  ...[1, 16, 64].map(
    (c): Target => ({
      target: `API decide ≥ 0.6 of Hono + the gate's middleware, c=${c}`,
      figure: `api decide / Hono + the gate's middleware c=${c}`,
      stat: 'median',
      at: 'least',
      limit: 0.6,
    }),
  ),
  ...[1, 16, 64].map(
    (c): Target => ({
      target: `API decide ≥ 5× Cerbos's HTTP check, c=${c}`,
      figure: `api decide / Cerbos c=${c}`,
      stat: 'median',
      at: 'least',
      limit: 5,
    }),
  ),
  {
    target: 'API decide p99 ≤ 5 ms at c=16',
    figure: (n) => n.startsWith('api gate POST') && n.endsWith('c=16 latency p99'),
    stat: 'median',
    at: 'most',
    limit: 5,
  },
  // The MCP gateway (docs/performance.md, "The mcp suite"): what each adds to the direct call, in one run.
  ...(
    [
      ['tollgate mcp (stdio)', 'tollgate mcp (stdio) -> upstream', 0.3, 1],
      ['/mcp (HTTP)', 'tollgate serve /mcp (HTTP) -> upstream', 1, 3],
    ] as const
  ).flatMap(([label, path, p50, p99]): Target[] => [
    { target: `${label} adds ≤ ${p50} ms at p50`, figure: `mcp added p50: ${path}`, stat: 'median', at: 'most', limit: p50 },
    { target: `${label} adds ≤ ${p99} ms at p99`, figure: `mcp added p99: ${path}`, stat: 'median', at: 'most', limit: p99 },
    {
      target: `${label}: a 10,000-call session's last 100 calls cost ≤ 1.25× its first 100 (p50)`,
      figure: `mcp long session, last 100 / first 100 calls (p50): ${path}`,
      stat: 'median',
      at: 'most',
      limit: 1.25,
    },
  ]),
  { target: 'console initial JS ≤ 200 KB gzip', figure: (n) => n.startsWith('console initial JS'), stat: 'median', at: 'most', limit: 200 },
  {
    target: 'keystroke to marker (200-rule sheet) ≤ 50 ms',
    figure: (n) => n.startsWith('keystroke -> marker drawn, 200-rule sheet (lint'),
    stat: 'median',
    at: 'most',
    limit: 50,
  },
];

export interface TargetResult {
  target: string;
  status: 'met' | 'missed' | 'not measured';
  value?: number;
  unit?: string;
  figure?: string;
}

export function checkTargets(figures: Figure[]): TargetResult[] {
  return TARGETS.map((t) => {
    const f = figures.find((x) => (typeof t.figure === 'string' ? x.figure === t.figure : t.figure(x.figure)));
    if (!f) return { target: t.target, status: 'not measured' };
    const value = f[t.stat];
    const met = t.at === 'most' ? value <= t.limit : value >= t.limit;
    return { target: t.target, status: met ? 'met' : 'missed', value, unit: f.unit, figure: `${f.figure} (${t.stat})` };
  });
}
