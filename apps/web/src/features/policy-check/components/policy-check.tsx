// The policy playground: policy text in Monaco and what the engine makes of it on every change; nothing is stored.
import { useMemo, useRef, useState } from 'react';
import { PageHeading } from '../../../components/page-heading.tsx';
import type { CodeEditorHandle } from '../../../lib/monaco/code-editor.tsx';
import { checkPolicy } from '../check-policy.ts';
import { SAMPLE_POLICY } from '../sample-policy.ts';
import { PolicyEditor } from './policy-editor.tsx';
import { PolicyStatusLine } from './policy-status-line.tsx';
import { ProblemList } from './problem-list.tsx';

export function PolicyCheck() {
  const [text, setText] = useState(SAMPLE_POLICY);
  const check = useMemo(() => checkPolicy(text), [text]);
  const editor = useRef<CodeEditorHandle>(null);
  return (
    <div className="stack">
      <PageHeading id="playground-heading" title="Policy playground" />
      <div className="policy-check">
        <section className="panel" aria-labelledby="editor-heading">
          <h2 id="editor-heading" className="panel-title">
            Editor
          </h2>
          <PolicyEditor ref={editor} initialText={SAMPLE_POLICY} diagnostics={check.diagnostics} onChange={setText} />
        </section>
        <section className="panel" aria-labelledby="result-heading">
          <h2 id="result-heading" className="panel-title">
            Check
          </h2>
          <PolicyStatusLine status={check.status} />
          <ProblemList problems={check.problems} onJump={(line, column) => editor.current?.goTo(line, column)} />
        </section>
      </div>
    </div>
  );
}
