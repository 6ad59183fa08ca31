// tollgate mcp: the MCP gateway over stdio for one agent (docs/mcp.md). The agent's key comes from the
// environment (TOLLGATE_AGENT_KEY), never the command line, and must belong to --agent; stdout carries MCP only.
import { ExactArguments, ExactStdioTransport } from '../../server/mcp/exact-stdio-transport.ts';
import { FastCalls } from '../../server/mcp/fast-call.ts';
import { createGateway } from '../../server/mcp/gateway.ts';
import { heartbeatFromEnvironment } from '../../server/state/nodes/model.ts';
import { CliError, type CliIo } from '../io.ts';
import { openWorkspace } from '../open-workspace.ts';
import {
  DEFAULT_APPROVAL_WAIT_SECONDS,
  DEFAULT_UPSTREAM_TIMEOUT_SECONDS,
  languageRevisionOf,
  type ParsedOptions,
  secondsOption,
} from '../options.ts';

export const AGENT_KEY_VARIABLE = 'TOLLGATE_AGENT_KEY';

export async function mcp(options: ParsedOptions, io: CliIo): Promise<number> {
  const agent = options.agent;
  if (agent === undefined) throw new CliError('USAGE', 'missing --agent NAME');
  const approvalWaitMs = secondsOption(options['approval-wait'], DEFAULT_APPROVAL_WAIT_SECONDS, 'approval-wait') * 1000;
  const upstreamTimeoutMs = secondsOption(options['upstream-timeout'], DEFAULT_UPSTREAM_TIMEOUT_SECONDS, 'upstream-timeout') * 1000;
  const languageRevision = languageRevisionOf(options['language-revision']);
  const key = process.env[AGENT_KEY_VARIABLE];
  if (!key) throw new CliError('USAGE', `set ${AGENT_KEY_VARIABLE} to the agent's key`);
  // Registered as a deciding node: the language gate (docs/deploy.md) counts it until it stops.
  const node = { languageRevision, heartbeatMs: heartbeatFromEnvironment(process.env) };
  const { ctx, where } = await openWorkspace(options, 'mcp', node);
  const auth = await ctx.state.authenticateKey(key, new Date());
  const principal = auth && 'principal' in auth ? auth.principal : undefined;
  if (principal?.kind !== 'agent' || principal.agent !== agent) {
    await ctx.close();
    // A wrong key is not a usage error: the command line was right (docs/cli.md, "tollgate mcp").
    // A revoked or expired key says so (docs/security.md, "Keys"), as the API's 401 does.
    const why = auth && 'refused' in auth ? ` (${auth.refused}: ${auth.message})` : '';
    throw new CliError('INVALID_KEY', `tollgate mcp: INVALID_KEY: ${AGENT_KEY_VARIABLE} is not a key of agent ${agent}${why}`);
  }
  const exact = new ExactArguments();
  const gateway = createGateway(ctx, agent, { approvalWaitMs, upstreamTimeoutMs, exact });
  const transport = new ExactStdioTransport(exact);
  // A plain tools/call is answered without the SDK's Protocol; every other message goes through it (fast-call.ts).
  transport.fast = new FastCalls({ answer: gateway.answerCall, server: gateway.server });
  io.stderr.write(`tollgate mcp: serving ${agent} over stdio (${where})\n`);
  return new Promise((done) => {
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      void gateway
        .close()
        .catch(() => undefined)
        .then(() => {
          ctx.events.close();
          return ctx.close();
        })
        .then(() => done(0));
    };
    transport.onclose = stop;
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    void gateway.server.connect(transport);
  });
}
