// A client configuration as `POST /v1/mcp/import` takes it: every value of `env` and `headers` is the NAME of a
// variable of the server's own environment, never a value (docs/mcp.md, "Drafting from the console"). Reads those
// names, refuses anything else where one belongs, and rewrites each as `${NAME}` so the one import path reads the
// value from the server's environment.
import { childPointer, type Diagnostic } from '@tollgate/engine/source';

/** A variable's name, as mcp/servers.yaml accepts one. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** `${NAME}` is a name too: the form a client's file uses to read a variable. */
const REFERENCE = /^\$\{([A-Za-z_][A-Za-z0-9_]{0,127})\}$/;
/** The gateway's own configuration: never handed to an upstream started from a request. */
const RESERVED = /^TOLLGATE_/i;

/** A variable the configuration names, and where. */
export interface NamedVariable {
  name: string;
  path: string;
}

export interface NamedConfig {
  /** The configuration with each name written `${NAME}`, for readClientConfig. */
  config: unknown;
  variables: NamedVariable[];
  problems: Diagnostic[];
}

/**
 * Reads the names in a configuration's `env` and `headers`. A stdio server gets each variable under its own name
 * (mcp/servers.yaml, `env: [NAME]`), so an env member must name itself; a header may name any variable.
 *
 * @example
 * namedVariables({ mcpServers: { files: { command: 'npx', env: { FILES_TOKEN: 'FILES_TOKEN' } } } })
 * // { config: { mcpServers: { files: { command: 'npx', env: { FILES_TOKEN: '${FILES_TOKEN}' } } } },
 * //   variables: [{ name: 'FILES_TOKEN', path: '/mcpServers/files/env/FILES_TOKEN' }], problems: [] }
 */
export function namedVariables(value: unknown): NamedConfig {
  const variables: NamedVariable[] = [];
  const problems: Diagnostic[] = [];
  if (!isRecord(value) || !isRecord(value.mcpServers)) return { config: value, variables, problems };
  const servers: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value.mcpServers)) {
    const path = childPointer('/mcpServers', key);
    if (!isRecord(entry)) {
      servers[key] = entry;
      continue;
    }
    const out: Record<string, unknown> = { ...entry };
    for (const member of ['env', 'headers'] as const) {
      const map = entry[member];
      if (!isRecord(map)) continue;
      const named: Record<string, unknown> = {};
      for (const [field, text] of Object.entries(map)) {
        const at = childPointer(`${path}/${member}`, field);
        named[field] = text;
        if (typeof text !== 'string') continue; // readClientConfig refuses it: INVALID_SERVER_ENTRY.
        const name = REFERENCE.exec(text)?.[1] ?? (VARIABLE_NAME.test(text) ? text : undefined);
        if (name === undefined) {
          // The value is never repeated: it may be the secret the console should have kept.
          problems.push(
            problem(
              'VARIABLE_NAME_REQUIRED',
              at,
              `${member} ${field} is given something that is not a variable's name; give the name of a variable of the server's environment that holds the value, never the value`,
            ),
          );
          continue;
        }
        if (RESERVED.test(name)) {
          problems.push(problem('VARIABLE_RESERVED', at, `${name} is the gateway's own configuration; it is never handed to an upstream`));
          continue;
        }
        if (member === 'env' && name !== field) {
          problems.push(
            problem(
              'ENV_NAME_DIFFERS',
              at,
              `mcp/servers.yaml hands the server ${field} under its own name: set ${field} in the server's environment and name ${field} here, not ${name}`,
            ),
          );
          continue;
        }
        named[field] = `\${${name}}`;
        variables.push({ name, path: at });
      }
      out[member] = named;
    }
    servers[key] = out;
  }
  return { config: { ...value, mcpServers: servers }, variables, problems };
}

/**
 * VARIABLE_NOT_SET for each named variable `env` does not hold, by where it is named.
 *
 * @example
 * unsetVariables([{ name: 'FILES_TOKEN', path: '/mcpServers/files/env/FILES_TOKEN' }], {}) // [{ code: 'VARIABLE_NOT_SET', ... }]
 */
export function unsetVariables(variables: readonly NamedVariable[], env: NodeJS.ProcessEnv): Diagnostic[] {
  return variables
    .filter((v) => env[v.name] === undefined)
    .map((v) => problem('VARIABLE_NOT_SET', v.path, `the server's environment has no ${v.name}; set it where tollgate serve runs`));
}

function problem(code: Diagnostic['code'], path: string, message: string): Diagnostic {
  return { code, severity: 'error', path, message };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
