// The Decision map tab of an agent or a policy: every tool of the agent's catalogue under each policy it runs,
// or every tool of the catalogues that use the policy under its running version (docs/console.md).
import { ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { useAgentMap, usePolicyMap } from '../api/get-decision-map.ts';
import { ToolDecisions } from './tool-decisions.tsx';

/** The agent an agent document defines: `agents/support-bot.agent.yaml` is support-bot. */
export function agentOf(id: string): string {
  return id.replace(/^agents\//, '').replace(/\.agent\.yaml$/, '');
}

export function DecisionMapTab({ id, kind }: { id: string; kind: 'agent' | 'policy' }) {
  return kind === 'agent' ? <AgentMap agent={agentOf(id)} /> : <PolicyMap id={id} />;
}

const NOTE = 'The policy’s decision alone: the agent’s delegation, rules and tool bindings may still refuse a call it allows.';

function AgentMap({ agent }: { agent: string }) {
  const map = useAgentMap(agent);
  if (map.isPending) return <Loading label="Mapping the agent's tools" />;
  if (map.isError) return <ErrorNotice error={map.error} />;
  return (
    <div className="stack">
      <p className="muted">
        {agent}’s tools ({map.data.catalogue}). {NOTE}
      </p>
      {map.data.policies.map((p) => (
        <section key={p.document} aria-label={`Under ${p.document}`}>
          <h3 className="panel-subtitle">
            Under {p.document}, version {p.version}
          </h3>
          <ToolDecisions tools={p.tools} label={`Decision map of ${agent} under ${p.document}`} />
        </section>
      ))}
    </div>
  );
}

function PolicyMap({ id }: { id: string }) {
  const map = usePolicyMap(id);
  if (map.isPending) return <Loading label="Mapping the policy's tools" />;
  if (map.isError) return <ErrorNotice error={map.error} />;
  return (
    <div className="stack">
      <p className="muted">
        Version {map.data.version}, over{' '}
        {map.data.source === 'agents' ? 'the catalogues of the agents that use it' : 'the workspace’s catalogue (no agent uses it)'}. {NOTE}
      </p>
      {map.data.catalogues.map((k) => (
        <section key={k.id} aria-label={`Tools of ${k.id}`}>
          <h3 className="panel-subtitle">
            {k.id}
            {k.agents.length > 0 && <span className="muted"> (agents {k.agents.join(', ')})</span>}
          </h3>
          <ToolDecisions tools={k.tools} label={`Decision map of ${k.id}`} />
        </section>
      ))}
    </div>
  );
}
