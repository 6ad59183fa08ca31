// What an upstreams edit widens: a server added, or a server reached another way (another command, args,
// URL, or more of the environment handed to it), so an allowed call may reach something new.
import type { Impact } from './types.ts';
import { impactOf } from './types.ts';
import { readUpstreams, type Upstream } from './upstreams.ts';

/**
 * Compares a new upstreams document with the running one (none running: every server is new).
 *
 * @example
 * analyzeUpstreamsImpact(undefined, 'servers:\n  - {name: files, stdio: {command: node}}\n')
 * // { widensSecurity: true, widenedSubjects: ['servers/files added'] }
 */
export function analyzeUpstreamsImpact(runningText: string | undefined, newText: string): Impact {
  const after = readUpstreams(newText);
  if (!after.ok) return impactOf([]);
  const before = runningText === undefined ? undefined : readUpstreams(runningText);
  const old = new Map((before?.ok ? before.upstreams.servers : []).map((s) => [s.name, s]));
  const out: string[] = [];
  for (const server of after.upstreams.servers) {
    const was = old.get(server.name);
    if (!was) out.push(`servers/${server.name} added`);
    else out.push(...changes(was, server).map((c) => `servers/${server.name} ${c}`));
  }
  return impactOf(out);
}

function changes(was: Upstream, now: Upstream): string[] {
  if (was.transport !== now.transport) return [`transport ${was.transport} -> ${now.transport}`];
  if (was.transport === 'stdio' && now.transport === 'stdio') {
    const out: string[] = [];
    if (was.command !== now.command || was.args.join('\0') !== now.args.join('\0')) out.push('command changed');
    for (const name of now.env) if (!was.env.includes(name)) out.push(`env + ${name}`);
    return out;
  }
  if (was.transport === 'http' && now.transport === 'http') {
    const out: string[] = [];
    if (was.url !== now.url) out.push(`url ${was.url} -> ${now.url}`);
    for (const [header, env] of Object.entries(now.headers)) if (was.headers[header] !== env) out.push(`headers/${header} -> ${env}`);
    return out;
  }
  return [];
}
