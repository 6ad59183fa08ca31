// Routes that only a policy has (decision maps, impact previews, trials, simulations of a stored version):
// asked of another kind of document, each answers the same 400 NOT_A_POLICY, read off the id alone
// (docs/api.md, "One vocabulary").
import { documentKindOf } from '@tollgate/engine';
import { ApiError } from '../errors.ts';
import { assertDocumentId } from './documents/checks.ts';

/**
 * Throws 400 INVALID_ID for an id the store would refuse, then 400 NOT_A_POLICY when `id` does not name a
 * policy; `only` says what only a policy has.
 *
 * @example
 * refuseNotAPolicy('sheets/shop.rules.yaml', 'only a policy has trials') // throws: "... is a sheet, not a policy: only a policy has trials"
 */
export function refuseNotAPolicy(id: string, only: string): void {
  assertDocumentId(id);
  const kind = documentKindOf(id);
  if (kind === 'policy') return;
  const what = kind === undefined ? 'not a known kind of document' : `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;
  throw new ApiError('NOT_A_POLICY', `${id} is ${what}, not a policy: ${only}`, { kind: kind ?? null });
}
