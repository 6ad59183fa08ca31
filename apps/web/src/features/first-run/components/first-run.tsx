// The first run of a workspace where no agent runs: the path from an MCP client's configuration to a running
// agent, each step a link to the page that does it, marked done or left from what the server has (docs/console.md,
// "First run").
import { useState } from 'react';
import { ErrorNotice } from '../../../components/query-state.tsx';
import { useWorkspaceDocuments } from '../api/get-workspace-documents.ts';
import type { McpImportResult } from '../api/post-mcp-import.ts';
import { type FirstRunStep, firstRunPath } from '../first-run-steps.ts';
import { ImportForm } from './import-form.tsx';
import { ImportOutcome } from './import-outcome.tsx';

interface FirstRunProps {
  /** Where a document's history is: its versions, diff, impact and Activate. */
  historyHref: (document: string) => string;
  simulationHref: string;
  upstreamsHref: string;
  membersHref: string;
}

export function FirstRun({ historyHref, simulationHref, upstreamsHref, membersHref }: FirstRunProps) {
  const documents = useWorkspaceDocuments();
  const [drafted, setDrafted] = useState<McpImportResult | null>(null);
  if (documents.isError) return <ErrorNotice error={documents.error} />;
  if (!documents.isSuccess) return null;
  const path = firstRunPath(documents.data);
  if (!path.show) return null;
  const hrefOf = (step: FirstRunStep) =>
    step.document === null ? null : step.page === 'simulation' ? simulationHref : historyHref(step.document);
  return (
    <section className="panel stack first-run" aria-labelledby="first-run-heading">
      <h2 id="first-run-heading" className="panel-title">
        Start from your MCP client
      </h2>
      <p className="muted">
        No agent runs in this workspace yet. Put the MCP servers your client uses behind Tollgate: paste their configuration, review what is
        drafted, run its examples and activate it. Nothing drafted runs until you activate it.
      </p>
      <p role="status" className="first-run-left">
        {path.left === 0 ? 'Every step is done.' : `${path.left} of ${path.steps.length} steps left.`}
      </p>
      <ol className="first-run-steps">
        {path.steps.map((step, i) => {
          const href = hrefOf(step);
          return (
            <li key={step.key} className={step.done ? 'first-run-step first-run-done' : 'first-run-step'}>
              <span className="first-run-step-head">
                <span className={step.done ? 'badge badge-running' : 'badge'}>{step.done ? 'done' : 'left'}</span>
                <span className="first-run-step-title">
                  {i + 1}. {href ? <a href={href}>{step.title}</a> : step.title}
                  {step.document && step.key !== 'examples' ? (
                    <>
                      {' '}
                      (<code>{step.document}</code>)
                    </>
                  ) : null}
                </span>
              </span>
              {step.key === 'import' && !step.done && <ImportForm onDrafted={setDrafted} />}
              {step.key === 'import' && drafted && <ImportOutcome result={drafted} />}
              {step.key === 'examples' && step.document && (
                <p className="muted">
                  On the simulation page, pick <code>{path.agent ? `policies/${path.agent}.policy.json` : 'the policy'}</code> and its
                  examples; then activate <a href={historyHref(step.document)}>{step.document}</a>.
                </p>
              )}
            </li>
          );
        })}
      </ol>
      <p className="muted">
        Then, for the agent to call its tools: authorize each tool’s definition on the <a href={upstreamsHref}>Upstreams</a> page or the
        catalogue’s tools, and give the agent a key on the <a href={membersHref}>Members and keys</a> page (docs/mcp.md).
      </p>
    </section>
  );
}
