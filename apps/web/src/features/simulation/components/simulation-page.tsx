// The simulation page: pick versions and calls, run, and read each call's decision per version.
import { useState } from 'react';
import { PageHeading } from '../../../components/page-heading.tsx';
import { Empty, ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { usePolicies } from '../api/get-policies.ts';
import { useRunSimulation } from '../api/run-simulation.ts';
import type { SimulationRequest } from '../api/types.ts';
import { SimulationForm } from './simulation-form.tsx';
import { SimulationResults } from './simulation-results.tsx';
import { TrialSection } from './trial-section.tsx';

interface SimulationPageProps {
  /** Owners and admins may read recorded arguments. */
  withArguments: boolean;
  /** Owners and admins may start and stop a trial. */
  canTrial: boolean;
}

export function SimulationPage({ withArguments, canTrial }: SimulationPageProps) {
  const policies = usePolicies();
  const run = useRunSimulation();
  const [document, setDocument] = useState<string | null>(null);
  const [request, setRequest] = useState<SimulationRequest | null>(null);
  const shown = document ?? policies.data?.[0]?.id ?? null;

  const start = (next: SimulationRequest) => {
    setRequest(next);
    run.mutate(next);
  };

  return (
    <section className="panel stack" aria-labelledby="simulation-heading">
      <PageHeading id="simulation-heading" title="Simulation" />
      {policies.isPending && <Loading label="Loading the policies" />}
      {policies.isError && <ErrorNotice error={policies.error} />}
      {policies.data?.length === 0 && <Empty>No policy documents to simulate.</Empty>}
      {policies.data && policies.data.length > 0 && (
        <SimulationForm
          policies={policies.data}
          running={run.isPending}
          withArguments={withArguments}
          onDocument={setDocument}
          onRun={start}
        />
      )}
      {shown !== null && <TrialSection document={shown} canTrial={canTrial} />}
      {run.isPending && (
        <p className="state state-loading" role="status">
          Running the simulation…
        </p>
      )}
      {run.isError && <ErrorNotice error={run.error} />}
      {run.isSuccess && request && <SimulationResults simulation={run.data} request={request} />}
    </section>
  );
}
