// POST /v1/simulations: decide pasted, recorded or example calls with a version and a candidate; each row gets its arguments summary.
import { useMutation } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { getDecisions } from './get-decisions.ts';
import { summariseArguments, summariseExample, summariseRecorded } from './summarise.ts';
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
  const source = request.calls;
  const calls = 'pasted' in source ? source.pasted : 'examples' in source ? { examples: source.examples } : { recorded: source.recorded };
  const body = { document: request.document, ...(request.candidate ? { candidate: request.candidate } : {}), calls };
  const [result, recorded] = await Promise.all([
    api.POST('/simulations', { body }).then(bodyOf),
    'recorded' in source ? getDecisions(source.recorded, request.withArguments) : Promise.resolve([]),
  ]);
  const byCall = new Map(recorded.map((d) => [d.call_id, d]));
  const pasted = 'pasted' in source ? source.pasted : [];
  const examples = 'examples' in source ? source.examples.examples : [];
  const rows = result.calls.map((call, i) => {
    const decision = byCall.get(call.name);
    const example = examples[i];
    // The API answers calls in the order sent, so pasted calls and examples pair by index.
    const summary = decision ? summariseRecorded(decision) : example ? summariseExample(example) : summariseArguments(pasted[i]?.arguments);
    return { call, summary };
  });
  return { counts: result.counts, compared: result.compared, rows };
}

export function useRunSimulation() {
  return useMutation({ mutationFn: runSimulation });
}
