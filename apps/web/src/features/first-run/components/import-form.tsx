// Step 1 of the first run: paste or upload an MCP client's configuration, name a variable of the server's
// environment for every value of env and headers, and send the configuration with the values stripped
// (docs/console.md, "First run"). The pasted text lives in this component's state only: never a draft, never sent.
import { type ChangeEvent, type FormEvent, useId, useState } from 'react';
import { ErrorNotice } from '../../../components/query-state.tsx';
import { ScrollPane } from '../../../components/scroll-pane.tsx';
import { ApiError } from '../../../lib/api/api-error.ts';
import { type McpImportResult, useMcpImport } from '../api/post-mcp-import.ts';
import { type ReadConfig, readClientConfigText, withVariableNames } from '../strip-values.ts';

/** The largest file read from disk: the server's body limit is 1 MiB. */
const MAX_FILE_BYTES = 512 * 1024;

export function ImportForm({ onDrafted }: { onDrafted: (result: McpImportResult) => void }) {
  const [text, setText] = useState('');
  const [read, setRead] = useState<ReadConfig | null>(null);
  const [names, setNames] = useState<Record<string, string>>({});
  const [agent, setAgent] = useState('mcp-agent');
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const importing = useMcpImport();
  const id = useId();

  const readText = (next: string) => {
    setText(next);
    setRead(null);
    importing.reset();
  };

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setFileProblem(null);
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) return setFileProblem(`${file.name} is larger than 512 KiB; it is not read.`);
    readText(await file.text());
  };

  const check = (event: FormEvent) => {
    event.preventDefault();
    const next = readClientConfigText(text);
    setRead(next);
    if (next.ok) setNames(Object.fromEntries(next.fields.map((f) => [f.path, f.suggested])));
  };

  const sent = read?.ok ? withVariableNames(read.value, read.fields, names) : null;

  const send = () => {
    if (sent === null) return;
    importing.mutate(
      { config: sent, agent },
      {
        onSuccess: (answer) => {
          onDrafted(answer);
          // The pasted values are no longer needed: forget them.
          setText('');
          setRead(null);
        },
      },
    );
  };

  return (
    <div className="stack first-run-import">
      <form className="stack" onSubmit={check} aria-label="MCP client configuration">
        <label className="field">
          Your MCP client’s configuration (the <code>mcpServers</code> JSON)
          <textarea
            className="first-run-config"
            value={text}
            rows={10}
            spellCheck={false}
            onChange={(e) => readText(e.target.value)}
            placeholder='{"mcpServers": {"files": {"command": "npx", "args": [...], "env": {"FILES_TOKEN": "..."}}}}'
          />
        </label>
        <label className="field">
          Or upload the file
          <input type="file" accept=".json,application/json" onChange={upload} />
        </label>
        {fileProblem && (
          <p className="state state-error" role="alert">
            {fileProblem}
          </p>
        )}
        <div>
          <button type="submit" className="button" disabled={text.trim() === ''}>
            Read the configuration
          </button>
        </div>
      </form>
      {read && !read.ok && (
        <p className="state state-error" role="alert">
          The configuration does not read: {read.problem}
        </p>
      )}
      {read?.ok && sent !== null && (
        <section className="stack" aria-labelledby={`${id}-names`}>
          <h3 id={`${id}-names`} className="first-run-subtitle">
            Name the server’s variables
          </h3>
          <p role="status" className="first-run-stripped">
            {read.fields.length === 0
              ? 'The configuration holds no env or header values: nothing to strip.'
              : `${read.fields.length} ${read.fields.length === 1 ? 'value was' : 'values were'} removed: they stay in this browser. For each, name the environment variable of the server (where tollgate serve runs) that holds it.`}
          </p>
          {read.fields.map((f) => (
            <label key={f.path} className="field">
              {f.member === 'env' ? `${f.server}: variable ${f.field}` : `${f.server}: header ${f.field}`}
              <input
                value={names[f.path] ?? ''}
                onChange={(e) => setNames({ ...names, [f.path]: e.target.value })}
                spellCheck={false}
                autoComplete="off"
                aria-describedby={f.fixed ? `${id}-fixed` : undefined}
              />
            </label>
          ))}
          {read.fields.some((f) => f.fixed) && (
            <p id={`${id}-fixed`} className="muted">
              A server started over stdio gets each variable under its own name, so the server’s environment must hold that name.
            </p>
          )}
          <label className="field">
            Agent name
            <input value={agent} onChange={(e) => setAgent(e.target.value)} spellCheck={false} autoComplete="off" />
          </label>
          <p className="muted">
            The command, its arguments and URLs are sent as written: a token written there would be too, so move it into env or a header
            first.
          </p>
          <details>
            <summary>What is sent</summary>
            <ScrollPane label="What is sent" className="first-run-sent">
              {sent}
            </ScrollPane>
          </details>
          <div>
            <button type="button" className="button button-primary" onClick={send} disabled={importing.isPending}>
              {importing.isPending ? 'Listing the tools…' : 'Draft the gateway'}
            </button>
          </div>
          {importing.error && <ImportRefusal error={importing.error} />}
        </section>
      )}
    </div>
  );
}

/** A refusal with each problem at its place in the configuration. */
function ImportRefusal({ error }: { error: Error }) {
  const problems = error instanceof ApiError ? problemsOf(error.details) : [];
  if (problems.length === 0) return <ErrorNotice error={error} />;
  return (
    <div role="alert" className="state state-error">
      <p>{error instanceof ApiError ? `${error.code}: ` : ''}nothing was saved.</p>
      <ul aria-label="Problems">
        {problems.map((p) => (
          <li key={`${p.code}${p.path}${p.message}`}>
            <code>{p.code}</code> {p.path ? <code>{p.path}</code> : null} {p.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

interface Problem {
  code: string;
  path?: string;
  message: string;
}

function problemsOf(details: unknown): Problem[] {
  const list = (details as { problems?: unknown } | undefined)?.problems;
  return Array.isArray(list) ? (list as Problem[]) : [];
}
