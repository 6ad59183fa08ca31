// What the document routes check against the store and the workspace before they answer or write: a
// version that exists (or is damaged), a developer's catalogue edit that would change a tool's binding, a
// policy version whose approvers cannot approve.
import { validateDocument } from '@tollgate/engine';
import { idProblem, type StoredDocument } from '@tollgate/store';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { changedBindings, readCatalogueTools } from '../../state/tools/model.ts';
import { notFound, storeError } from '../route-kit.ts';

/** A malformed id names no document on any route: 400 INVALID_ID (docs/api.md, "One vocabulary"). */
export function assertDocumentId(id: string): void {
  const problem = idProblem(id);
  if (problem) throw new ApiError('INVALID_ID', `${JSON.stringify(id)}: ${problem}`);
}

export function sequenceOf(text: string): number {
  return Number(text);
}

export async function version(ctx: AppContext, id: string, sequence: number): Promise<StoredDocument> {
  const v = await ctx.store.getVersion(id, sequence).catch(storeError);
  if (!v) {
    await refuseDamaged(ctx, id, sequence);
    throw notFound('version', `${id} has no version ${sequence}`);
  }
  return v;
}

/** A version the history names but whose file cannot be read is damaged, not missing: 409 DAMAGED, with the file named. */
export async function refuseDamaged(ctx: AppContext, id: string, sequence: number | undefined): Promise<void> {
  const history = await ctx.store.history(id).catch(() => []);
  const named = history.find((v) => (sequence === undefined ? v.running : v.sequence === sequence));
  if (!named) return;
  const problem = ctx.store.problems().find((p) => p.id === id && p.code === 'DAMAGED_VERSION' && p.sequence === named.sequence);
  throw new ApiError('DAMAGED', problem?.message ?? `${id} version ${named.sequence} is stored, but its file is damaged`);
}

/**
 * Only an owner or admin changes a tool's binding (docs/catalogue.md, "The authorized binding"): a
 * developer's catalogue edit that changes the action or amount mapping of a running tool is refused. Text
 * that does not load is left to the seam, which refuses it with its problems.
 */
export async function refuseBindingChange(ctx: AppContext, id: string, content: string): Promise<void> {
  const after = readCatalogueTools(id, content);
  if (!after) return;
  const running = await ctx.store.get(id).catch(storeError);
  const before = (running ? readCatalogueTools(id, running.text) : undefined) ?? new Map();
  const changed = changedBindings(before, after, await ctx.state.authorizationsOf(id));
  // Where a tool's MCP calls go is the owner's or admin's to say too (docs/mcp.md): a developer never remaps it.
  for (const [name, tool] of after) {
    const was = before.get(name)?.upstream;
    const now = tool.upstream;
    if ((was?.server !== now?.server || was?.tool !== now?.tool) && !changed.includes(name)) changed.push(name);
  }
  if (changed.length === 0) return;
  throw new ApiError(
    'BINDING_CHANGE_FORBIDDEN',
    `only an owner or admin can change a tool's binding (its action, amount mapping or upstream); this edit changes ${changed.join(', ')}`,
    { tools: changed },
  );
}

/** A policy version runs only while its approvers.users are members able to approve (docs/policy.md, "Approvers"). */
export async function refuseUnknownApprovers(id: string, text: string, ctx: AppContext): Promise<void> {
  const approverCodes = new Set(['UNKNOWN_APPROVER', 'APPROVER_ROLE_NOT_CAPABLE']);
  const problems = validateDocument(id, text, { members: await ctx.state.judgedMembers() }).problems.filter((p) =>
    approverCodes.has(p.code),
  );
  if (problems.length === 0) return;
  throw new ApiError('INVALID_POLICY', `${id}: ${problems[0]?.message}, so this version cannot run`, {
    errors: problems.map((p) => ({ code: p.code, path: p.path ?? '', message: p.message })),
  });
}
