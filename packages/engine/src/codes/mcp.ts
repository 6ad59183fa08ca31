// Part of the one code registry (index.ts). Codes the MCP gateway answers a tools/call with, as a tool result
// with isError (docs/mcp.md). Users script against these codes: a code is never reused.
import type { CodeEntry } from './entry.ts';

function mcp(meaning: string): CodeEntry {
  return { severity: 'error', meaning, in: { mcp: meaning } };
}

export const MCP_CODES = {
  DENIED: mcp('A rule of the agent’s policy denied the call; details.rule names it. The upstream was never called.'),
  TOOL_NOT_OFFERED: mcp('The tool is not one the gateway offers: no catalogue tool of that name maps to a tool its upstream lists.'),
  APPROVAL_DENIED: mcp('A person denied the approval the call was held for; the upstream was never called.'),
  APPROVAL_WAIT_ENDED: mcp(
    'The call is still held; the gateway stopped waiting (--approval-wait). The message names the approval; retry later.',
  ),
  CALL_CANCELLED: mcp('The client cancelled a call while it was held for approval; the upstream was never called.'),
  UPSTREAM_UNAVAILABLE: mcp('The upstream server could not be started or reached, or is not in mcp/servers.yaml.'),
  UPSTREAM_TIMEOUT: mcp('The upstream did not answer within the upstream timeout (--upstream-timeout).'),
  UPSTREAM_MALFORMED: mcp('The upstream answered with something that is not a tool result.'),
  UPSTREAM_FAILED: mcp('The upstream failed the call with a protocol error; the message says what it said.'),
} as const satisfies Record<string, CodeEntry>;
