// Liveness and readiness (docs/api.md, "Liveness and readiness"; docs/deploy.md): GET /v1/health/live answers
// while the process does, GET /v1/health/ready only while this node can decide calls now. Readiness names each
// check and whether it passes, nothing more, as both answer without a key: the database answering within
// READY_DEADLINE_MS, its schema current, the decision log writing, the document store undamaged (what
// /v1/health reports), this node in the registry (state/nodes/), and the node not draining (a stop under way,
// cli/commands/serve.ts). A load balancer reading 503 sends calls elsewhere; the calls this node is sent anyway
// are still decided or refused as ever (fail closed), readiness only says where to send them.
import { DAMAGE_CODES } from '@tollgate/store';
import type { Context } from 'hono';
import type { AppContext } from '../context.ts';

/** How long the database may take to answer the probe's statements before `database` fails. */
export const READY_DEADLINE_MS = 1_000;

/** A node's stop under way: readiness fails first, so traffic moves before connections close. */
export interface Drain {
  draining: boolean;
}

export type CheckName = 'database' | 'migrations' | 'decision_log' | 'document_store' | 'node_registered' | 'draining';

export interface Readiness {
  status: 'ready' | 'unready';
  checks: { name: CheckName; ok: boolean }[];
}

/** Every check, each bounded (a database that does not answer fails its checks within READY_DEADLINE_MS). */
export async function readinessOf(ctx: AppContext | undefined, drain: Drain | undefined): Promise<Readiness> {
  const checks: Readiness['checks'] = [{ name: 'draining', ok: !drain?.draining }];
  if (ctx) {
    const state = await ctx.state.readiness(READY_DEADLINE_MS).catch(() => ({ database: false, migrations: false, decisionLog: false }));
    checks.push(
      { name: 'database', ok: state.database },
      { name: 'migrations', ok: state.migrations },
      { name: 'decision_log', ok: state.decisionLog },
      { name: 'document_store', ok: !ctx.store.problems().some((p) => DAMAGE_CODES.includes(p.code)) },
    );
    if (ctx.node) checks.push({ name: 'node_registered', ok: state.database && (await registered(ctx, ctx.node.id)) });
  }
  return { status: checks.every((c) => c.ok) ? 'ready' : 'unready', checks };
}

async function registered(ctx: AppContext, id: string): Promise<boolean> {
  const now = ctx.now();
  const nodes = await ctx.state.listNodes(now).catch(() => []);
  return nodes.some((n) => n.id === id && n.live);
}

/** GET /v1/health/live: the process answers. */
export function liveAnswer(c: Context): Response {
  return c.json({ status: 'ok' });
}

/** GET /v1/health/ready: 200 when every check passes, 503 naming each check otherwise (never cached). */
export async function readyAnswer(c: Context, ctx: AppContext | undefined, drain: Drain | undefined): Promise<Response> {
  const ready = await readinessOf(ctx, drain);
  c.header('cache-control', 'no-store');
  return c.json(ready, ready.status === 'ready' ? 200 : 503);
}
