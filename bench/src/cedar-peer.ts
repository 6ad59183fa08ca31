// The Cedar peer: the refunds policy written in Cedar (bench/peers/cedar/), decided by
// @cedar-policy/cedar-wasm's Node build. Two policy sets: the first says allow or deny; when it allows,
// the second says whether the call is held for approval. Policies are either preparsed once (Cedar's
// stateful API) or handed over as text on every call.
import { readFileSync } from 'node:fs';
import type { Context, EntityJson, EntityUidJson } from '@cedar-policy/cedar-wasm/nodejs';
import * as cedar from '@cedar-policy/cedar-wasm/nodejs';
import { peerAmount } from './peer-amount.ts';
import type { Call } from './streams.ts';

const DIR = new URL('../peers/cedar/', import.meta.url);
export const CEDAR_DECIDE = readFileSync(new URL('refunds.cedar', DIR), 'utf8');
export const CEDAR_APPROVAL = readFileSync(new URL('refunds-approval.cedar', DIR), 'utf8');

/** One call as Cedar sees it, built once per call outside the timed loop. */
export interface CedarRequest {
  /** Set when the harness decides the call itself: its amount is one policy@1 cannot read. */
  harness?: 'deny';
  action: EntityUidJson;
  context: Context;
  entities: EntityJson[];
}

const PRINCIPAL: EntityUidJson = { type: 'Agent', id: 'bench' };

/** The action's entity with its group: "payouts.send" is in Action::"payouts.*" (policy@1's prefix pattern). */
function actionEntities(action: string): EntityJson[] {
  const dot = action.indexOf('.');
  if (dot < 0) return [];
  return [{ uid: { type: 'Action', id: action }, attrs: {}, parents: [{ type: 'Action', id: `${action.slice(0, dot)}.*` }] }];
}

export function toCedarRequest(call: Call): CedarRequest {
  const amount = peerAmount(call.tool, call.args);
  const request: CedarRequest = {
    action: { type: 'Action', id: call.tool.action },
    context: {},
    entities: actionEntities(call.tool.action),
  };
  if (amount.kind === 'unreadable') request.harness = 'deny';
  if (amount.kind === 'amount') request.context = { amount: { __extn: { fn: 'decimal', arg: amount.decimal } }, amount_cut: amount.cut };
  return request;
}

export interface CedarPeer {
  /** Decides with the policy sets preparsed once (statefulIsAuthorized). */
  decideLoaded(request: CedarRequest, resource: string): string;
  /** Decides handing Cedar the policy text on every call (isAuthorized). */
  decidePerCall(request: CedarRequest, resource: string): string;
}

function answer(r: cedar.AuthorizationAnswer): 'allow' | 'deny' {
  if (r.type !== 'success') throw new Error(`cedar: ${r.errors.map((e) => e.message).join('; ')}`);
  if (r.response.diagnostics.errors.length > 0) throw new Error(`cedar: ${r.response.diagnostics.errors[0]?.error.message}`);
  return r.response.decision;
}

/** Checks both policy sets parse, preparses them, and returns the two ways to decide. */
export function createCedarPeer(): CedarPeer {
  for (const [id, text] of [
    ['tollgate-decide', CEDAR_DECIDE],
    ['tollgate-approval', CEDAR_APPROVAL],
  ] as const) {
    const parsed = cedar.preparsePolicySet(id, { staticPolicies: text });
    if (parsed.type !== 'success') throw new Error(`cedar ${id}: ${parsed.errors.map((e) => e.message).join('; ')}`);
  }
  const loaded = (request: CedarRequest, resource: string, set: string) =>
    answer(
      cedar.statefulIsAuthorized({
        principal: PRINCIPAL,
        action: request.action,
        resource: { type: 'Tool', id: resource },
        context: request.context,
        entities: request.entities,
        preparsedPolicySetId: set,
      }),
    );
  const perCall = (request: CedarRequest, resource: string, text: string) =>
    answer(
      cedar.isAuthorized({
        principal: PRINCIPAL,
        action: request.action,
        resource: { type: 'Tool', id: resource },
        context: request.context,
        entities: request.entities,
        policies: { staticPolicies: text },
      }),
    );
  return {
    decideLoaded(request, resource) {
      if (request.harness) return request.harness;
      if (loaded(request, resource, 'tollgate-decide') === 'deny') return 'deny';
      return loaded(request, resource, 'tollgate-approval') === 'allow' ? 'require_approval' : 'allow';
    },
    decidePerCall(request, resource) {
      if (request.harness) return request.harness;
      if (perCall(request, resource, CEDAR_DECIDE) === 'deny') return 'deny';
      return perCall(request, resource, CEDAR_APPROVAL) === 'allow' ? 'require_approval' : 'allow';
    },
  };
}

/**
 * Times one pass of Cedar over the first `count` requests: decisions per second and the mean µs per
 * call of each batch. Its own loop rather than measure.ts's timePass: sharing one call site between the
 * engine and the wasm calls made Node 20.20's V8 crash deoptimising (a builtin continuation).
 */
export function timeCedarPass(
  peer: CedarPeer,
  requests: CedarRequest[],
  resources: string[],
  count: number,
  perCall: boolean,
  batch: number,
) {
  const batchMicros: number[] = [];
  let allowed = 0;
  const start = process.hrtime.bigint();
  let batchStart = start;
  for (let i = 0; i < count; i++) {
    const d = perCall
      ? peer.decidePerCall(requests[i] as CedarRequest, resources[i] as string)
      : peer.decideLoaded(requests[i] as CedarRequest, resources[i] as string);
    if (d === 'allow') allowed++;
    if ((i + 1) % batch === 0) {
      const now = process.hrtime.bigint();
      batchMicros.push(Number(now - batchStart) / 1000 / batch);
      batchStart = now;
    }
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { perSecond: count / seconds, batchMicros, allowed };
}
