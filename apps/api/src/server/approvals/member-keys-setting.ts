// Whether the running settings require member-held keys (settings.yaml's approvals_require_member_keys;
// docs/approver-keys.md), and the members as approvers are judged under it: what the gate, the decision map, the
// diff, previews and simulations count as eligible.
import { type Member, readSettings } from '@tollgate/engine';
import type { AppContext } from '../context.ts';

/** The running settings' approvals_require_member_keys; false with no settings file, or one that does not read. */
export async function memberKeysRequired(ctx: AppContext): Promise<boolean> {
  const doc = await ctx.store.get('settings.yaml');
  if (!doc) return false;
  const read = readSettings(doc.text, undefined, { stored: true });
  return read.ok && read.settings.approvals_require_member_keys;
}

/** The members as rules judge approvers under the running settings. */
export async function approverMembers(ctx: AppContext): Promise<readonly Member[]> {
  return ctx.state.judgedMembers(await memberKeysRequired(ctx));
}
