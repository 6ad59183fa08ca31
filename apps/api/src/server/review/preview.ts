// The impact preview of a policy text against a version, over the catalogues of the agents that use the
// policy (docs/review.md): what the impact-preview route answers, and what a conflicting edit of a policy
// carries against the version that now runs (docs/documents.md, "Conflicts").
import type { AppContext } from '../context.ts';
import type { PreviewJson } from './answers.ts';
import { judgedMembers, policyCatalogues, review } from './sources.ts';

/**
 * Which tools `candidateText` changes, from what decision to what, against `running`.
 *
 * @example
 * await previewAgainst(ctx, 'policies/refunds.policy.json', { sequence: 2, text }, editedText, 'the edit')
 * // { id, running: 2, source: 'agents', catalogues: [{ id: 'catalogue.yaml', agents, tools, unchanged }], widens, narrows, depends }
 */
export async function previewAgainst(
  ctx: AppContext,
  id: string,
  running: { sequence: number; text: string },
  candidateText: string,
  what: string,
  signal?: AbortSignal,
) {
  const { source, catalogues } = await policyCatalogues(ctx, id);
  const answer = await review<{ ok: true; previews: PreviewJson[] }>(
    {
      preview: {
        running: running.text,
        candidate: candidateText,
        catalogues: catalogues.map((k) => k.tools),
        members: await judgedMembers(ctx),
      },
    },
    what,
    signal,
  );
  const previews = catalogues.map((k, i) => {
    const p = answer.previews[i] as PreviewJson;
    return { id: k.id, agents: k.agents, tools: p.tools, unchanged: p.unchanged };
  });
  return {
    id,
    running: running.sequence,
    source,
    catalogues: previews,
    widens: answer.previews.some((p) => p.widens),
    narrows: answer.previews.some((p) => p.narrows),
    depends: answer.previews.some((p) => p.depends),
  };
}
