// The axe check the journeys share: serious and critical findings only, label-in-name included (docs/console.md,
// "Accessibility").
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** The serious and critical violations on the page as it is now, one line each: rule, then the elements at fault. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    // Off by default in axe as experimental; WCAG 2.5.3 asks for it, and the console keeps it.
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(' | ')}`);
}
