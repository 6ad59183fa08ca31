// A pasted MCP client configuration made safe to send: every value of a server's `env` and `headers` is replaced
// by the name of a variable of the server's environment, in the browser, so no value leaves it (docs/console.md,
// "First run"; the server refuses anything that is not a name: docs/mcp.md, "Drafting from the console").
import { childPointer, writeJson } from '@tollgate/engine/source';
import { readPastedJson } from '../../lib/read-pasted-json.ts';

/** A value the page asks a name for: where it is and what the server will need. */
export interface SecretField {
  /** The JSON Pointer of the value in the configuration, the key of its name. */
  path: string;
  /** The server's name in the configuration. */
  server: string;
  member: 'env' | 'headers';
  /** The variable (env) or header the value was for. */
  field: string;
  /** The name to offer: an env member's own name, `${NAME}`'s NAME, else `<SERVER>_<HEADER>`. */
  suggested: string;
  /** A stdio variable keeps its own name: mcp/servers.yaml hands it to the server under that name. */
  fixed: boolean;
}

export type ReadConfig =
  | { ok: true; value: Record<string, unknown>; fields: SecretField[] }
  | { ok: false; problem: string; place?: { start: number; end: number } };

const REFERENCE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/**
 * Reads pasted text as a client configuration and lists every value to replace by a name.
 *
 * @example
 * readClientConfigText('{"mcpServers": {"files": {"command": "npx", "env": {"TOKEN": "s3cret"}}}}')
 * // { ok: true, value: {...}, fields: [{ path: '/mcpServers/files/env/TOKEN', server: 'files', member: 'env', field: 'TOKEN', suggested: 'TOKEN', fixed: true }] }
 */
export function readClientConfigText(text: string): ReadConfig {
  const read = readPastedJson(text);
  if (!read.ok) return { ok: false, problem: read.problem, ...(read.place ? { place: read.place } : {}) };
  const value = read.value;
  if (!isRecord(value) || !isRecord(value.mcpServers)) {
    return { ok: false, problem: 'This is JSON, but not an MCP client’s configuration: it has no "mcpServers" object.' };
  }
  const fields: SecretField[] = [];
  for (const [server, entry] of Object.entries(value.mcpServers)) {
    if (!isRecord(entry)) continue;
    for (const member of ['env', 'headers'] as const) {
      const map = entry[member];
      if (map === undefined) continue;
      // Anything else could hold a value the page cannot tell from a name: it is never sent.
      if (!isRecord(map))
        return { ok: false, problem: `${server}’s ${member} is not an object of names and values; fix it before importing.` };
      for (const [field, held] of Object.entries(map)) {
        const reference = typeof held === 'string' ? REFERENCE.exec(held)?.[1] : undefined;
        const suggested = member === 'env' ? field : (reference ?? headerVariable(server, field));
        fields.push({
          path: childPointer(childPointer(childPointer('/mcpServers', server), member), field),
          server,
          member,
          field,
          suggested,
          fixed: member === 'env',
        });
      }
    }
  }
  return { ok: true, value, fields };
}

/**
 * The configuration as it is sent: each field's value replaced by the name given for it (its suggestion when none
 * is), so none of the pasted values is in the text.
 *
 * @example
 * withVariableNames(value, fields, { '/mcpServers/search/headers/Authorization': 'SEARCH_KEY' })
 */
export function withVariableNames(
  value: Record<string, unknown>,
  fields: readonly SecretField[],
  names: Readonly<Record<string, string>>,
): string {
  const servers = value.mcpServers as Record<string, Record<string, unknown>>;
  const out: Record<string, unknown> = {};
  for (const [server, entry] of Object.entries(servers)) {
    if (!isRecord(entry)) {
      out[server] = entry;
      continue;
    }
    const copy: Record<string, unknown> = { ...entry };
    for (const member of ['env', 'headers'] as const) {
      const map = entry[member];
      if (!isRecord(map)) continue;
      const named: Record<string, unknown> = {};
      for (const field of Object.keys(map)) {
        const f = fields.find((x) => x.server === server && x.member === member && x.field === field);
        // A field this page did not list is sent empty, never with its value.
        named[field] = f ? names[f.path]?.trim() || f.suggested : '';
      }
      copy[member] = named;
    }
    out[server] = copy;
  }
  // The exact writer: a number keeps its lexeme, as the server's exact reader will read it.
  return writeJson({ ...value, mcpServers: out });
}

/** `<SERVER>_<HEADER>` in upper snake case, as the import names a header's variable (docs/mcp.md). */
function headerVariable(server: string, header: string): string {
  const name = `${server}_${header}`.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
  return /^[A-Z_]/.test(name) ? name : `MCP_${name}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
