// POST /v1/mcp/import (owner or admin, a person): drafts upstreams, a catalogue, a policy with its examples and an
// agent from a client configuration that names variables, none running (docs/mcp.md, "Drafting from the console").
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import type { components } from '../../../lib/api/schema';
import { queryKeys } from '../../../lib/query-keys.ts';

export type McpImportResult = components['schemas']['McpImportResult'];
export type McpImportRequest = components['schemas']['McpImportRequest'];

export async function postMcpImport(body: McpImportRequest): Promise<McpImportResult> {
  return bodyOf(await api.POST('/mcp/import', { body }));
}

export function useMcpImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postMcpImport,
    // The drafts are new documents: every view of the documents (the list, the steps, histories) reads them again.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.documents.all }),
  });
}
