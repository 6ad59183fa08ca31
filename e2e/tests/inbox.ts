// The approvals inbox as the journeys reach it (docs/console.md, "Approvals inbox"): a held call's row in the
// compact list, found by its call id, and the pane that shows the selected call in full.
import { expect, type Locator, type Page } from '@playwright/test';

/** The row of the call `callId` in the list named `list` (the Pending or the Decided tab's). */
export function inboxRow(page: Page, callId: string, list = 'Pending requests'): Locator {
  return page.getByRole('list', { name: list }).locator(`li[data-call="${callId}"]`);
}

/** The pane showing the selected call. */
export const selectedCall = (page: Page): Locator => page.getByRole('region', { name: 'Selected call' });

/** Selects the call `callId` by a click on its row, and answers the pane once it shows that call. */
export async function openHeld(page: Page, callId: string, list = 'Pending requests'): Promise<Locator> {
  await inboxRow(page, callId, list).getByRole('button').click();
  const pane = selectedCall(page);
  await expect(pane).toContainText(callId);
  return pane;
}
