// POST /v1/simulations: decide pasted or recorded calls with a version and a candidate; each row gets its arguments summary.
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { getDecisions } from './get-decisions.ts';
import { summariseArguments, summariseRecorded } from './summarise.ts';
import type { SimulatedCall, SimulationRequest, SimulationResult } from './types.ts';

export interface SimulationRow {
  call: SimulatedCall;
  summary: string;
}

export interface Simulation {
  counts: SimulationResult['counts'];
  compared: SimulationResult['compared'];
  rows: SimulationRow[];
}

export async function runSimulation(request: SimulationRequest): Promise<Simulation> {
  const calls = 'pasted' in request.calls ? request.calls.pasted : { recorded: request.calls.recorded };
  const body = { document: request.document, ...(request.candidate ? { candidate: request.candidate } : {}), calls };
  const [result, recorded] = await Promise.all([
    apiFetch<SimulationResult>('/v1/simulations', { method: 'POST', body }),
    'recorded' in request.calls ? getDecisions(request.calls.recorded, request.withArguments) : Promise.resolve([]),
  ]);
  const byCall = new Map(recorded.map((d) => [d.call_id, d]));
  const pasted = 'pasted' in request.calls ? request.calls.pasted : [];
  const rows = result.calls.map((call, i) => {
    const decision = byCall.get(call.name);
    const summary = decision ? summariseRecorded(decision) : summariseArguments(pasted[i]?.arguments);
    return { call, summary };
  });
  return { counts: result.counts, compared: result.compared, rows };
}

export function useRunSimulation() {
  return useMutation({ mutationFn: runSimulation });
}
