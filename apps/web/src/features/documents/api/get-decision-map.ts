// GET /v1/agents/{agent}/decision-map and GET /v1/documents/{id}/decision-map: every catalogue tool's decision
// under the policies an agent runs, or under a policy's running version (docs/review.md).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { AgentDecisionMap, PolicyDecisionMap } from './types.ts';

export async function getAgentMap(agent: string, signal?: AbortSignal): Promise<AgentDecisionMap> {
  return bodyOf(await api.GET('/agents/{agent}/decision-map', { params: { path: { agent }, query: {} }, signal }));
}

export async function getPolicyMap(id: string, signal?: AbortSignal): Promise<PolicyDecisionMap> {
  return bodyOf(await api.GET('/documents/{id}/decision-map', { params: { path: { id }, query: {} }, signal }));
}

export const agentMapQueryOptions = (agent: string) =>
  queryOptions({ queryKey: queryKeys.documents.agentMap(agent), queryFn: ({ signal }) => getAgentMap(agent, signal) });

export const policyMapQueryOptions = (id: string) =>
  queryOptions({ queryKey: queryKeys.documents.policyMap(id), queryFn: ({ signal }) => getPolicyMap(id, signal) });

export function useAgentMap(agent: string) {
  return useQuery(agentMapQueryOptions(agent));
}

export function usePolicyMap(id: string) {
  return useQuery(policyMapQueryOptions(id));
}
