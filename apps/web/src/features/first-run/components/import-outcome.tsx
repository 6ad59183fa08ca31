// What the import saved: the drafts (none running), the tools, the variables the server's environment must keep,
// and what it did not import, with why.
import type { McpImportResult } from '../api/post-mcp-import.ts';

export function ImportOutcome({ result }: { result: McpImportResult }) {
  const reads = result.tools.filter((t) => t.kind === 'read').length;
  return (
    <div className="stack" role="status" aria-label="Drafted">
      <p>
        Drafted {result.tools.length} {result.tools.length === 1 ? 'tool' : 'tools'} ({reads} read-only, allowed;{' '}
        {result.tools.length - reads} held for approval). <strong>Nothing runs yet</strong>: saved as versions that do not run:
      </p>
      <ul className="first-run-list">
        {result.documents.map((d) => (
          <li key={d.id}>
            <code>{d.id}</code> version {d.sequence}
          </li>
        ))}
      </ul>
      {result.variables.length > 0 && (
        <p>
          Keep these variables in the server’s environment: {result.variables.map((v) => v.name).join(', ')}. Their values were read there
          and written nowhere.
        </p>
      )}
      {result.problems.length > 0 && (
        <ul className="first-run-list" aria-label="Not imported">
          {result.problems.map((p) => (
            <li key={`${p.code}${p.path}${p.message}`}>
              <code>{p.code}</code> {p.path ? <code>{p.path}</code> : null} {p.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
