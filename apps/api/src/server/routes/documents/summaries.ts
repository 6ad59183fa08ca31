// The documents' summaries for the list route: each stored document's kind, status, running sequence and
// problems (the store's, a rejected newer version's, the running version's checked against the store, and a
// running policy's failing examples).
import type { z } from '@hono/zod-openapi';
import { documentKindOf, exampleSuiteIdOf, validateDocument } from '@tollgate/engine';
import type { DocumentVersion } from '@tollgate/store';
import type { AppContext } from '../../context.ts';
import { exampleProblems } from './example-problems.ts';
import type { DocumentStatus, ProblemSchema, SummarySchema } from './schemas.ts';
import { diagnosticJson } from './wire.ts';

/** Which version runs, against the newest stored (docs/store.md). */
export function statusOf(history: DocumentVersion[]): DocumentStatus {
  const running = history.find((v) => v.running);
  const newest = history[history.length - 1];
  if (!running || !newest) {
    if (history.length === 0) return 'not_loaded';
    // A draft saved as a version that does not run (an import's, a model's held edit) is not a rejection.
    return history.some((v) => v.rejected) ? 'rejected_only' : 'not_running';
  }
  if (newest.sequence === running.sequence) return 'running';
  return history.some((v) => v.sequence > running.sequence && v.rejected) ? 'newer_rejected' : 'newer_not_running';
}

/** The running text of `id` (a policy's example suite), or undefined when there is none. */
async function runningText(ctx: AppContext, histories: Map<string, DocumentVersion[]>, id: string | undefined) {
  const running = id === undefined ? undefined : histories.get(id)?.find((v) => v.running);
  if (id === undefined || running === undefined) return undefined;
  return (await ctx.store.getVersion(id, running.sequence).catch(() => undefined))?.text;
}

/** Every document the store holds or reports a problem with, sorted by id. */
export async function documentSummaries(ctx: AppContext): Promise<z.infer<typeof SummarySchema>[]> {
  const storeProblems = ctx.store.problems();
  const ids = new Set(await ctx.store.list());
  for (const p of storeProblems) if (documentKindOf(p.id) !== undefined || ids.has(p.id)) ids.add(p.id);
  const histories = new Map<string, DocumentVersion[]>();
  for (const id of [...ids].sort()) histories.set(id, await ctx.store.history(id).catch(() => []));
  // Reference checks against what is stored, so a rule set or agent naming a missing document shows it.
  const exists = (id: string, sequence?: number) =>
    (histories.get(id) ?? []).some((v) => !v.rejected && (sequence === undefined || v.sequence === sequence));
  const documents = [];
  for (const [id, history] of histories) {
    const problems: z.infer<typeof ProblemSchema>[] = storeProblems
      .filter((p) => p.id === id)
      .map((p) => ({ source: 'store' as const, code: p.code, severity: 'error' as const, message: p.message }));
    const running = history.find((v) => v.running);
    const status = statusOf(history);
    if (status === 'newer_rejected' || status === 'rejected_only') {
      const newest = history[history.length - 1];
      for (const message of newest?.problems ?? []) {
        problems.push({ source: 'version', code: 'REJECTED_VERSION', severity: 'error', message });
      }
    }
    if (running) {
      const stored = await ctx.store.getVersion(id, running.sequence).catch(() => undefined);
      if (stored && documentKindOf(id) !== undefined) {
        const checked = validateDocument(id, stored.text, { exists, members: await ctx.state.judgedMembers() });
        for (const d of checked.problems) problems.push(diagnosticJson(d, 'error'));
        for (const d of checked.lints) problems.push(diagnosticJson(d, 'warning'));
        // A sound policy whose running examples do not hold is not problem-free (docs/console.md, "Documents list").
        const suite = await runningText(ctx, histories, exampleSuiteIdOf(id));
        if (checked.problems.length === 0 && suite !== undefined) problems.push(...exampleProblems(stored.text, suite));
      }
    }
    documents.push({
      id,
      kind: documentKindOf(id) ?? null,
      status,
      running_sequence: running?.sequence ?? null,
      versions: history.length,
      problems,
    });
  }
  return documents;
}
