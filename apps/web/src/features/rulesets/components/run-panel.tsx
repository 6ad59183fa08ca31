// Run the shown set version against one call: pick a tool from the catalogue or type the call's JSON.
import { type FormEvent, useId, useRef, useState } from 'react';
import { showPlace } from '../../../lib/show-place.ts';
import { useToolCatalogue } from '../api/get-tool-catalogue.ts';
import type { Ruleset } from '../api/types.ts';
import { useValidateRuleset } from '../api/validate-ruleset.ts';
import { parseCall } from '../parse-call.ts';
import { sampleCallText } from '../sample-call.ts';
import { RulesetError } from './ruleset-error.tsx';
import { RunResult } from './run-result.tsx';

function ToolPicker({ onPick }: { onPick: (callText: string) => void }) {
  const tools = useToolCatalogue();
  const fieldId = useId();
  if (tools.isError) return <p className="muted">The catalogue did not load ({tools.error.message}); type the call below.</p>;
  return (
    <div className="run-tool">
      <label htmlFor={fieldId} className="field">
        Tool from the catalogue
      </label>
      <select
        id={fieldId}
        className="select"
        defaultValue=""
        disabled={!tools.isSuccess}
        onChange={(event) => {
          const tool = tools.data?.find((t) => t.name === event.target.value);
          if (tool) onPick(sampleCallText(tool));
        }}
      >
        <option value="" disabled>
          {tools.isPending ? 'Loading the catalogue…' : 'Pick a tool'}
        </option>
        {(tools.data ?? []).map((tool) => (
          <option key={tool.name} value={tool.name}>
            {tool.name} ({tool.action})
          </option>
        ))}
      </select>
    </div>
  );
}

export function RunPanel({ set }: { set: Ruleset }) {
  const [text, setText] = useState('{\n  "tool": "",\n  "arguments": {}\n}');
  const [problem, setProblem] = useState<string | null>(null);
  const validate = useValidateRuleset();
  const callId = useId();
  const problemId = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  const run = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseCall(text);
    setProblem(parsed.ok ? null : parsed.message);
    if (parsed.ok) validate.mutate({ id: set.id, versionId: set.version_id, call: parsed.call });
    else showPlace(field.current, parsed.place);
  };
  // A result from another version would mislead: show it only beside the version it ran.
  const shownRun = validate.data?.version_id === set.version_id && validate.data.ruleset === set.id ? validate.data : undefined;
  return (
    <section className="panel run-panel" aria-labelledby="run-heading">
      <h3 id="run-heading" className="panel-title">
        Run version {set.version_id} against a call
      </h3>
      <form className="stack" onSubmit={run}>
        <ToolPicker onPick={setText} />
        <label htmlFor={callId} className="field">
          Call (JSON)
        </label>
        <textarea
          id={callId}
          ref={field}
          className="editor-text run-call"
          rows={7}
          spellCheck={false}
          value={text}
          aria-invalid={problem !== null}
          aria-describedby={problem !== null ? problemId : undefined}
          onChange={(event) => setText(event.target.value)}
        />
        {problem !== null && (
          <p id={problemId} className="state state-error" role="alert">
            {problem}
          </p>
        )}
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={validate.isPending}>
            {validate.isPending ? 'Running…' : `Run version ${set.version_id}`}
          </button>
        </div>
      </form>
      {validate.error !== null && <RulesetError error={validate.error} />}
      {shownRun && <RunResult run={shownRun} />}
    </section>
  );
}
