// The policy check: holds the text and shows what the engine makes of it on every change.
import { useMemo, useState } from 'react';
import { checkPolicy } from '../check-policy.ts';
import { SAMPLE_POLICY } from '../sample-policy.ts';
import { PolicyEditor } from './policy-editor.tsx';
import { PolicyStatusLine } from './policy-status-line.tsx';
import { ProblemList } from './problem-list.tsx';

export function PolicyCheck() {
  const [text, setText] = useState(SAMPLE_POLICY);
  const check = useMemo(() => checkPolicy(text), [text]);
  return (
    <div className="policy-check">
      <section className="panel" aria-labelledby="editor-heading">
        <h1 id="editor-heading" className="panel-title" tabIndex={-1}>
          Editor
        </h1>
        <PolicyEditor text={text} onChange={setText} />
      </section>
      <section className="panel" aria-labelledby="result-heading">
        <h2 id="result-heading" className="panel-title">
          Check
        </h2>
        <PolicyStatusLine status={check.status} />
        <ProblemList problems={check.problems} />
      </section>
    </div>
  );
}
