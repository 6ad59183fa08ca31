// Shared fixtures for the rules tests: the reference shop sheet and its unsupported.yaml
// (docs/rule-sheets.md), and a YAML catalogue of the tools they name.
import { type Dirent, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { serve } from '@hono/node-server';
import { SHOP_SHEET } from '../../../packages/engine/test/fixtures/shop.ts';
import { createApp } from '../src/server/app.ts';
import { workspace } from './cli-harness.ts';

/** The reference example sheet (docs/rule-sheets.md), verbatim. */
export { SHOP_SHEET };

/** The reference unsupported.yaml (docs/rule-sheets.md, "Refused, never approximated"): the second rule for refund_card is on line 4. */
export const UNSUPPORTED_SHEET = `rules:
  - action: refund_card
    requires: [supervisor_approved]
  - action: refund_card
    never: true
`;

/** The exact refusal line docs/rule-sheets.md shows for unsupported.yaml, given the path as typed. */
export function unsupportedLine(file: string): string {
  return `${file}:4:13: rule_sheet_unsupported: \`refund_card\` has a rule already: one rule per action, so how two would combine is never guessed. The sheet was not compiled; nothing was changed.`;
}

/** The shop's catalogue: four writes (close_account named by no rule) and one read. */
export const SHOP_CATALOGUE = `tools:
  - name: check_stock
    action: stock.check
    kind: read
  - name: refund_card
    action: refund.issue
    kind: write
    amount: {pointer: /amount, currency: USD}
  - name: charge_card
    action: payments.charge
    kind: write
  - name: send_receipt
    action: receipts.send
    kind: write
  - name: close_account
    action: accounts.close
    kind: write
`;

/** A sheet whose rules all stand and leave no write of SHOP_CATALOGUE ungoverned. */
export const GOVERNED_SHEET = `rules:
  - action: refund_card
    requires: [supervisor_approved]
    when: { amount_over: 200 }
  - action: charge_card
    requires_confirmation: true
    check: [{field: quantity, at_most: {from: check_stock.in_stock}}]
  - action: send_receipt
    after: [charge_card]
    at_most: 1
  - action: close_account
    confirmation: "Close this account for good?"
    not_after: [refund_card]
`;

/** The reference policy example (examples/refunds.policy.json), as its file's text. */
export const REFUNDS_POLICY_TEXT = readFileSync(new URL('../../../examples/refunds.policy.json', import.meta.url), 'utf8');

const made: string[] = [];

/**
 * A temp folder as workspace() makes it, removed by removeWorkspaces() (run it in afterEach);
 * `put` writes text into nested folders, creating them.
 */
export function tempFolder(): ReturnType<typeof workspace> & { put(name: string, text: string): string } {
  const w = workspace();
  made.push(w.dir);
  return {
    ...w,
    put(name, text) {
      const path = join(w.dir, name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      return path;
    },
  };
}

export function removeWorkspaces(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Every file and link under `dir`, hidden ones included, as sorted relative paths. */
export function listFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as Dirent[])
    .filter((e) => !e.isDirectory())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/** Serves createApp() on a real loopback socket; close() resolves once the server has stopped. */
export async function startServer(): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const app = createApp();
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        port: info.port,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((err) => (err ? fail(err) : done()));
            if ('closeAllConnections' in server) server.closeAllConnections();
          }),
      });
    });
  });
}

/** Text as a literal inside a RegExp. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
