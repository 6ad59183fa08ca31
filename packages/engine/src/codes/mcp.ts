// Part of the one code registry (index.ts). Codes the MCP gateway answers a tools/call with, as a tool result
// with isError, and those `tollgate mcp import` reports about a client's configuration (docs/mcp.md). Users
// script against these codes: a code is never reused.
import type { CodeEntry } from './entry.ts';

// Each helper's return type names its domains, so a view of the table (codeView, CliCode) holds only the codes
// of its domain.
type McpEntry = { severity: 'error'; meaning: string; in: { mcp: string } };
function mcp(meaning: string): McpEntry;
function mcp(meaning: string, importing: string): McpEntry & { in: { 'mcp-import': string } };
function mcp(meaning: string, importing?: string): CodeEntry {
  return { severity: 'error', meaning, in: { mcp: meaning, ...(importing ? { 'mcp-import': importing } : {}) } };
}

function importing(
  severity: CodeEntry['severity'],
  meaning: string,
): { severity: CodeEntry['severity']; meaning: string; in: { 'mcp-import': string } } {
  return { severity, meaning, in: { 'mcp-import': meaning } };
}

export const MCP_CODES = {
  DENIED: mcp('A rule of the agent’s policy denied the call; details.rule names it. The upstream was never called.'),
  TOOL_NOT_OFFERED: mcp('The tool is not one the gateway offers: no catalogue tool of that name maps to a tool its upstream lists.'),
  APPROVAL_DENIED: mcp('A person denied the approval the call was held for; the upstream was never called.'),
  APPROVAL_WAIT_ENDED: mcp(
    'The call is still held; the gateway stopped waiting (--approval-wait). The message names the approval; retry later.',
  ),
  CONFIRMATION_DECLINED: mcp(
    'The call needs a person’s confirmation; the client was asked (MCP elicitation) and the answer was not an accepted confirm: true, or none came within --approval-wait. The upstream was never called.',
  ),
  CALL_CANCELLED: mcp(
    'The client cancelled a call: while it was held for approval (the upstream was never called), or while the upstream was answering (its answer is dropped; the SDK sends the client nothing).',
  ),
  UPSTREAM_UNAVAILABLE: mcp(
    'The upstream server could not be started or reached within the upstream timeout, went away before it answered, or is not in mcp/servers.yaml.',
    'A server of the file could not be started or reached to list its tools; nothing is drafted for it, the others are.',
  ),
  UPSTREAM_TIMEOUT: mcp(
    'The upstream did not answer within the upstream timeout (--upstream-timeout).',
    'A server did not list its tools within --upstream-timeout; nothing is drafted for it, the others are.',
  ),
  UPSTREAM_MALFORMED: mcp(
    'The upstream answered with something that is not a valid tool result (by MCP’s result schema, or the tool’s own output schema).',
    'A server answered tools/list with something that is not a tool list; nothing is drafted for it.',
  ),
  UPSTREAM_FAILED: mcp(
    'The upstream answered with a JSON-RPC error (details.upstream_error: its code, message and data, as it sent them), or refused the request over HTTP (details.upstream_error.http_status).',
    'A server answered tools/list with a JSON-RPC error; the message gives its code and words; nothing is drafted for it.',
  ),
  NOT_CLIENT_CONFIG: importing('error', 'The file is JSON but not an MCP client’s configuration: it has no mcpServers object.'),
  INVALID_SERVER_ENTRY: importing(
    'error',
    'A server entry cannot be read: not an object, neither command nor url, a value of the wrong type, a URL that is not http(s) or holds a user or password, an env name that is not a variable name. It is not imported.',
  ),
  UNSUPPORTED_TRANSPORT: importing(
    'warning',
    'A server entry uses a transport the gateway does not speak (sse, websocket, ...): only stdio and Streamable HTTP. It is not imported.',
  ),
  SERVER_DISABLED: importing('warning', 'A server entry is marked disabled in the client; it is not imported.'),
  UNSUPPORTED_MEMBER: importing(
    'warning',
    'A member of a server entry that mcp/servers.yaml cannot hold (cwd, timeout, ...); it is ignored and the server imported without it.',
  ),
  SERVER_RENAMED: importing(
    'warning',
    'A server’s name is not one mcp/servers.yaml accepts (1-64 lowercase letters, digits, _ and -), or a server of that name is there already: it is imported under the name given.',
  ),
  ENV_CONFLICT: importing(
    'warning',
    'Two servers set one variable to different values; the gateway hands both the one value of its own environment.',
  ),
  TOOL_NOT_MAPPABLE: importing(
    'warning',
    'An upstream tool’s name is not one a catalogue can map to (1-128 letters, digits, _, - or .); no catalogue tool is drafted for it.',
  ),
  NO_TOOLS: importing('warning', 'A server lists no tools; nothing is drafted for it.'),
  DOCUMENT_EXISTS: importing(
    'error',
    'The catalogue, policy or agent the import would draft has versions already; nothing is saved (choose another --agent or --catalogue).',
  ),
  NOTHING_TO_IMPORT: importing('error', 'No server of the file listed a tool that can be drafted; nothing is saved.'),
  VARIABLE_NAME_REQUIRED: importing(
    'error',
    'POST /v1/mcp/import: a value of env or headers is not the name of an environment variable (letters, digits and _, not starting with a digit). Values never travel to the server: the console replaces each by a name. The message never repeats the value.',
  ),
  ENV_NAME_DIFFERS: importing(
    'error',
    'POST /v1/mcp/import: an env member names another variable than itself; mcp/servers.yaml hands a stdio server each variable under its own name, so the gateway’s environment must hold that name.',
  ),
  VARIABLE_RESERVED: importing(
    'error',
    'POST /v1/mcp/import: a variable named TOLLGATE_… is the gateway’s own configuration and is never handed to an upstream started from a request.',
  ),
  VARIABLE_NOT_SET: importing(
    'error',
    'POST /v1/mcp/import: the server’s environment has no variable of that name; set it where tollgate serve runs and import again. Nothing is started or saved.',
  ),
} as const satisfies Record<string, CodeEntry>;
