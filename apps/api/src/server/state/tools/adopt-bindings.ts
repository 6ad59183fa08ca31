// The bindings running when authorizations begin: recorded as authorized once per database (docs/catalogue.md,
// "The authorized binding"), and all at once by the demo seed.
import { documentKindOf, type ToolBinding } from '@tollgate/engine';
import type { DocumentStore } from '@tollgate/store';
import type { StateStore } from '../state-store.ts';
import { type Authorizer, bindingOf, readCatalogueTools, SYSTEM_AUTHORIZER } from './model.ts';

/** Every running catalogue's tool bindings, by catalogue document, in the store's order. */
export async function runningBindings(store: DocumentStore): Promise<{ catalogue: string; binding: ToolBinding }[]> {
  const found: { catalogue: string; binding: ToolBinding }[] = [];
  for (const id of await store.list()) {
    if (documentKindOf(id) !== 'catalogue') continue;
    const doc = await store.get(id).catch(() => undefined);
    const tools = doc ? readCatalogueTools(id, doc.text) : undefined;
    for (const tool of tools?.values() ?? []) found.push({ catalogue: id, binding: bindingOf(tool) });
  }
  return found;
}

/** Authorizes every binding of the running catalogues' tools (the demo seed; the first run's adoption). */
export async function authorizeRunningBindings(state: StateStore, store: DocumentStore, by: Authorizer, now: Date): Promise<void> {
  await state.authorizeBindings(await runningBindings(store), by, now);
}

/**
 * Once per database: the bindings running when authorizations first run are recorded as authorized by
 * `system`, so a workspace that ran before keeps running after the upgrade (docs/catalogue.md).
 */
export async function adoptRunningBindings(state: StateStore, store: DocumentStore, now: Date): Promise<void> {
  if (await state.bindingsAdopted()) return;
  await authorizeRunningBindings(state, store, SYSTEM_AUTHORIZER, now);
  await state.bindingsAdopted(now);
}
