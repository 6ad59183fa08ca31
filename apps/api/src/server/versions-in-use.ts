// Which versions of a document are still in use, so the store's pruning keeps them (docs/store.md,
// "Retention"): a pin of any stored rule-set version, an agent's `ruleset_version`, a settings file's
// approved `id@N`, and a running trial's candidate. Asked only when a save would prune.
import { documentKindOf, readAgent, readSettings } from '@tollgate/engine';
import { readJsonText } from '@tollgate/engine/source';
import type { DocumentStore } from '@tollgate/store';
import { SHADOWS_KEY } from './shadows/rule-shadows.ts';

/** The store's `versionsInUse` hook for a Tollgate data folder. */
export async function versionsInUse(id: string, store: DocumentStore): Promise<number[]> {
  const used = new Set<number>();
  for (const other of await store.list()) {
    const kind = documentKindOf(other);
    if (kind === 'ruleset') {
      for (const v of await store.history(other)) {
        if (v.rejected) continue;
        const text = (await store.getVersion(other, v.sequence))?.text;
        for (const pin of pinsOf(text)) if (pin.rule_id === id && Number.isSafeInteger(pin.version_id)) used.add(pin.version_id as number);
      }
    } else if (kind === 'agent') {
      const text = (await store.get(other))?.text;
      const read = text === undefined ? undefined : readAgent(text);
      if (read?.ok && read.agent.ruleset === id && read.agent.ruleset_version !== undefined) used.add(read.agent.ruleset_version);
    } else if (other === 'settings.yaml') {
      const text = (await store.get(other))?.text;
      const settings = text === undefined ? undefined : readSettings(text);
      for (const entry of settings?.ok ? settings.settings.approved_rulesets : []) {
        const at = entry.lastIndexOf('@');
        if (at > 0 && entry.slice(0, at) === id) used.add(Number(entry.slice(at + 1)));
      }
    }
  }
  const trial = (await store.readState(`trials/${id}`)) as { candidate?: unknown; running?: unknown } | undefined;
  if (trial?.running === true && typeof trial.candidate === 'number') used.add(trial.candidate);
  const shadows = (await store.readState(SHADOWS_KEY)) as Record<string, { candidate?: unknown; running?: unknown }> | null | undefined;
  const shadow = shadows?.[id];
  if (shadow?.running === true && typeof shadow.candidate === 'number') used.add(shadow.candidate);
  return [...used];
}

function pinsOf(text: string | undefined): { rule_id?: unknown; version_id?: unknown }[] {
  if (text === undefined) return [];
  // The exact reader, as every stored document is read; a set that does not read pins nothing.
  const read = readJsonText(text);
  const value = (read.ok ? read.value : undefined) as { pins?: unknown } | null | undefined;
  if (value === null || typeof value !== 'object' || !Array.isArray(value.pins)) return [];
  return value.pins.filter((p) => p !== null && typeof p === 'object');
}
