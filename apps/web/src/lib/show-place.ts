// Shows a problem of pasted text where it was typed: the caret goes to its place in the field, which takes the
// focus (the run panel's call, the simulation's pasted calls; lib/read-pasted-json.ts finds the place).
import type { PastedPlace } from './read-pasted-json.ts';

/** Focuses `field` and selects `place` in it; nothing when either is missing. */
export function showPlace(field: HTMLTextAreaElement | null, place: PastedPlace | undefined): void {
  if (field === null || place === undefined) return;
  field.focus();
  field.setSelectionRange(place.start, place.end);
}
