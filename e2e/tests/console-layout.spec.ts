// Journey: the wide parts of the console at 1280 and 390 px (docs/console.md, "Layout and the build"): the history's
// diff gets the page's width, the examples table never breaks a word, the simulation table's columns can all be
// reached, the compiled panes do not scroll sideways. Saves the screenshots docs/console.md shows.
/// <reference lib="dom" />
import { fileURLToPath } from 'node:url';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { holdCall, openDiff, openEditor, runSimulation, SHEET_ID, storeTwoVersions } from './console-states.ts';
import { memberKey, signIn } from './demo.ts';
import { REFUNDS_ID } from './history.ts';
import { brokenWords } from './layout-checks.ts';

const SCREENSHOTS = fileURLToPath(new URL('../../docs/console-screenshots/', import.meta.url));

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

/** Inside the window from left to right once scrolled to. */
async function expectWithinWindow(page: Page, target: Locator): Promise<void> {
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(box, 'the element has a box').not.toBeNull();
  expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(width + 0.5);
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test(`the inbox, the diff, the examples, the simulation and the compiled panes fit ${viewport.width} px`, async ({ page, request }) => {
      test.setTimeout(150_000);
      const size = viewport.width;
      await signIn(page, memberKey('owner'), '#/approvals');
      const held = await holdCall(request);
      // Read afresh: the call may have been held before the page's event stream was open.
      await page.reload();
      const inbox = page.getByRole('region', { name: 'Approvals' });
      await expect(inbox.getByRole('list', { name: 'Pending requests' }).getByRole('listitem').first()).toBeVisible();
      await inbox.screenshot({ path: `${SCREENSHOTS}inbox-${size}.png` });
      // Denied again, so no other journey finds it waiting.
      const denied = await request.post(`/v1/approvals/${encodeURIComponent(held)}/deny`, {
        headers: { authorization: `Bearer ${memberKey('approver')}` },
        data: { reason: 'a layout screenshot only' },
      });
      expect(denied.ok()).toBe(true);

      const versions = await storeTwoVersions(request, `layout-${size}`);
      await test.step('the diff gets the page width', async () => {
        await openDiff(page, versions);
        const diff = page.locator('.monaco-diff-editor');
        const width = (await diff.boundingBox())?.width ?? 0;
        // The panel's padding and border aside, the diff spans the page (at most 1200 px wide).
        expect(width).toBeGreaterThan(Math.min(size, 1200) - 110);
        if (size >= 1280) {
          for (const side of ['.editor.original', '.editor.modified']) {
            expect((await diff.locator(side).boundingBox())?.width ?? 0, `${side} pane`).toBeGreaterThan(480);
          }
        }
        await page.locator('.compare').screenshot({ path: `${SCREENSHOTS}diff-${size}.png` });
      });

      await test.step("the simulation's columns can all be reached", async () => {
        await runSimulation(page, versions);
        const table = page.getByRole('table', { name: new RegExp(`^${versions.id}`) });
        const pane = page.getByRole('region', { name: 'Simulated calls, scrolls sideways' });
        await expect(pane).toHaveAttribute('tabindex', '0');
        for (const column of ['Call', `Version ${versions.from}`, `Candidate: Version ${versions.to}`, 'Status']) {
          await expectWithinWindow(page, table.getByRole('columnheader', { name: column, exact: true }));
        }
        if (size >= 1280) expect(await pane.evaluate((e) => e.scrollWidth <= e.clientWidth), 'no sideways scroll').toBe(true);
        await pane.evaluate((e) => e.scrollTo({ left: 0 }));
        await page.getByRole('region', { name: 'Simulation results' }).screenshot({ path: `${SCREENSHOTS}simulation-${size}.png` });
      });

      await test.step('the examples table breaks no word', async () => {
        await openEditor(page, REFUNDS_ID);
        const table = page.getByRole('table', { name: 'Example results' });
        await expect(table.getByRole('row').nth(1)).toBeVisible();
        expect(await brokenWords(table.locator('th, td'))).toEqual([]);
      });

      await test.step('the compiled panes do not scroll sideways', async () => {
        await openEditor(page, SHEET_ID);
        const panes = page.locator('.compiled-text');
        await expect(panes).toHaveCount(3);
        const overflowing = await panes.evaluateAll((elements) =>
          elements.filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.getAttribute('aria-label')),
        );
        expect(overflowing).toEqual([]);
      });
    });
  });
}
