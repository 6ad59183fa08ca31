// A trial's scope as set when it started (docs/review.md, "Trials on live calls"): the one agent and the one
// tool whose calls it samples, the time it ends at and the samples it stops after; each shown only when set.
import type { ReactNode } from 'react';
import { absoluteWords } from '../../../lib/relative-time.ts';
import type { TrialReport } from '../api/types.ts';

type Scope = Pick<TrialReport, 'agent' | 'tool' | 'ends_at' | 'max_samples'>;

export function TrialScope({ trial }: { trial: Scope }) {
  const set: [string, ReactNode][] = [];
  if (trial.agent !== null) set.push(['Agent', <code key="agent">{trial.agent}</code>]);
  if (trial.tool !== null) set.push(['Tool', <code key="tool">{trial.tool}</code>]);
  if (trial.ends_at !== null) {
    set.push([
      'Ends at',
      <time key="ends" dateTime={trial.ends_at}>
        {absoluteWords(Date.parse(trial.ends_at))}
      </time>,
    ]);
  }
  if (trial.max_samples !== null) set.push(['Max samples', trial.max_samples]);
  if (set.length === 0) return <p className="muted">Scope: the calls of every agent and every tool, until it is stopped.</p>;
  return (
    <dl className="sim-scope" aria-label="Trial scope">
      {set.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
