// Path parameters as every route reads them (docs/api.md, "One vocabulary"): a parameter that can never name
// a resource is 400 INVALID_ID before any handler runs (the router's hook), so no route answers 2xx or looks
// anything up for an id the store would refuse, a `..` segment, or a name of the wrong kind. Undecodable
// percent-encoding is refused for every parameter by the router itself (openapi.ts, undecodablePathParams).
import { z } from '@hono/zod-openapi';
import { type DocumentKind, documentKindOf } from '@tollgate/engine';
import { idProblem } from '@tollgate/store';
import { agentNameProblem, codePoints } from '../call-request.ts';

/** What a path parameter is, for the OpenAPI document: its name and description and an example. */
interface ParamDoc {
  name: string;
  description: string;
  example: string;
}

/** The longest opaque id (an approval's, a decision's) or name (a template's, a tool's) a route reads. */
export const MAX_NAME_LENGTH = 128;

/**
 * A document id: one the store would hold (document-id.ts's idProblem), of one of `kinds` when given.
 *
 * @example
 * documentIdParam({ name: 'id', description: 'The rule set id', example: 'rulesets/support.ruleset.json' }, ['ruleset'], 'a rule set id')
 */
export function documentIdParam(doc: ParamDoc, kinds?: readonly DocumentKind[], what?: string) {
  return z
    .string()
    .superRefine((id, ctx) => {
      const problem = idProblem(id);
      if (problem) {
        ctx.addIssue({ code: 'custom', message: problem, params: { code: 'invalid_id' } });
        return;
      }
      const kind = documentKindOf(id);
      if (kinds && (kind === undefined || !kinds.includes(kind))) {
        ctx.addIssue({ code: 'custom', message: `${id} is not ${what ?? kinds.join(' or ')}`, params: { code: 'wrong_kind' } });
      }
    })
    .openapi({
      param: { name: doc.name, in: 'path' },
      description: `${doc.description}, URL-encoded as one path segment`,
      example: doc.example,
    });
}

/** An agent's name, as in its document `agents/<name>.agent.yaml`. */
export function agentParam(doc: ParamDoc, max: number) {
  return z
    .string()
    .min(1)
    .max(max)
    .superRefine((name, ctx) => {
      // Judged only within the length bounds, so the router names one issue, as the gate's own check does.
      if (name.length === 0 || (name.length > max && codePoints(name) > max)) return;
      const problem = agentNameProblem(name);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, params: { code: 'invalid_id' } });
    })
    .openapi({ param: { name: doc.name, in: 'path' }, description: doc.description, example: doc.example });
}

/** An opaque id or name (an approval, a member, a decision, a template, a tool): anything short is looked up. */
export function nameParam(doc: ParamDoc, max = MAX_NAME_LENGTH) {
  return z
    .string()
    .min(1)
    .max(max)
    .openapi({ param: { name: doc.name, in: 'path' }, description: doc.description, example: doc.example });
}
