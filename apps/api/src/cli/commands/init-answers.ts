// The answers `tollgate init` needs (the data folder, the owner's name, the agent's name, the template): each from
// its flag, else asked on a terminal, else its documented default, so a run without a terminal never waits
// (docs/cli.md, "tollgate init").
import { userInfo } from 'node:os';
import { createInterface } from 'node:readline';
import { listTemplates } from '@tollgate/engine/policy';
import { CliError } from '../io.ts';
import { AGENT_NAME } from './mcp-import.ts';

/** A member's name as the API takes it (routes/member-changes.ts). */
const MEMBER_NAME = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$/;
export const DEFAULT_DATA = '.tollgate-data';
export const DEFAULT_AGENT = 'agent';
export const DEFAULT_MCP_AGENT = 'mcp-agent';
export const DEFAULT_TEMPLATE = 'support-refunds';

/** Where prompts are read and written: the process's terminal, present only when stdin and stdout are both one. */
export interface Terminal {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

export interface InitAnswers {
  data: string;
  owner: string;
  agent: string;
  /** The template's name; undefined with --from-mcp, whose policy is drafted from the servers' tools. */
  template: string | undefined;
}

/** What the command line gave; undefined where it did not. */
export interface GivenAnswers {
  data: string | undefined;
  owner: string | undefined;
  agent: string | undefined;
  template: string | undefined;
  fromMcp: boolean;
}

/** The OS user's name when it is a member name, else `owner`. */
export function defaultOwner(): string {
  try {
    const name = userInfo().username;
    return MEMBER_NAME.test(name) ? name : 'owner';
  } catch {
    return 'owner';
  }
}

/** Why a member name is refused, or undefined. */
export function ownerProblem(name: string): string | undefined {
  return MEMBER_NAME.test(name) ? undefined : 'a member name is 1-128 letters, digits and . _ @ + -, starting with a letter or digit';
}

/** Why an agent name is refused, or undefined. */
export function agentProblem(name: string): string | undefined {
  return AGENT_NAME.test(name) ? undefined : 'an agent name is 1-64 lowercase letters, digits and -, starting with a letter or digit';
}

/** Why a template name is refused (UNKNOWN_TEMPLATE's words), or undefined. */
export function templateProblem(name: string): string | undefined {
  const names = listTemplates().map((t) => t.name);
  return names.includes(name) ? undefined : `there is no template "${name}"; the templates are ${names.join(', ')}`;
}

/**
 * Every answer: a flag's is checked (USAGE for a malformed name; an unknown template is the caller's to refuse),
 * a missing one is asked on `terminal` when there is one, else takes its default.
 */
export async function resolveAnswers(given: GivenAnswers, terminal: Terminal | undefined): Promise<InitAnswers> {
  if (given.owner !== undefined) usage('--owner', ownerProblem(given.owner));
  if (given.agent !== undefined) usage('--agent', agentProblem(given.agent));
  const ask = terminal ? asker(terminal) : undefined;
  try {
    const data =
      given.data ??
      (ask ? await ask.text('Data folder', DEFAULT_DATA, (v) => (v.trim() === '' ? 'give a path' : undefined)) : DEFAULT_DATA);
    const owner = given.owner ?? (ask ? await ask.text("Owner's member name", defaultOwner(), ownerProblem) : defaultOwner());
    const agentDefault = given.fromMcp ? DEFAULT_MCP_AGENT : DEFAULT_AGENT;
    const agent = given.agent ?? (ask ? await ask.text("Agent's name", agentDefault, agentProblem) : agentDefault);
    let template = given.template;
    if (!given.fromMcp && template === undefined) template = ask ? await ask.template() : DEFAULT_TEMPLATE;
    return { data, owner, agent, template };
  } finally {
    ask?.close();
  }
}

function usage(flag: string, problem: string | undefined): void {
  if (problem !== undefined) throw new CliError('USAGE', `${flag}: ${problem}`);
}

/** Questions on a terminal: each repeated until its answer holds; an empty answer takes the default. */
function asker(terminal: Terminal) {
  const rl = createInterface({ input: terminal.input, output: terminal.output, terminal: true });
  let closed = false;
  rl.on('close', () => {
    closed = true;
  });
  const question = (prompt: string) =>
    new Promise<string>((resolve, reject) => {
      // A closed input (Ctrl-D) answers nothing: the command stops rather than guess.
      if (closed) return reject(new CliError('USAGE', 'the terminal closed before every question was answered; nothing was made'));
      const onClose = () => reject(new CliError('USAGE', 'the terminal closed before every question was answered; nothing was made'));
      rl.once('close', onClose);
      rl.question(prompt, (answer) => {
        rl.off('close', onClose);
        resolve(answer.trim());
      });
    });
  const text = async (label: string, fallback: string, problem: (v: string) => string | undefined): Promise<string> => {
    for (;;) {
      const answer = (await question(`${label} [${fallback}]: `)) || fallback;
      const why = problem(answer);
      if (why === undefined) return answer;
      terminal.output.write(`  ${why}\n`);
    }
  };
  const template = async (): Promise<string> => {
    const templates = listTemplates();
    terminal.output.write('Policy templates:\n');
    for (const [i, t] of templates.entries()) terminal.output.write(`  ${i + 1}. ${t.name}: ${t.description}\n`);
    for (;;) {
      const answer = (await question(`Template (name or number) [${DEFAULT_TEMPLATE}]: `)) || DEFAULT_TEMPLATE;
      const byNumber = /^[0-9]+$/.test(answer) ? templates[Number(answer) - 1]?.name : undefined;
      const name = byNumber ?? answer;
      const why = templateProblem(name);
      if (why === undefined) return name;
      terminal.output.write(`  ${why}\n`);
    }
  };
  return { text, template, close: () => rl.close() };
}
