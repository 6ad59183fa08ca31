// The journeys' accessibility check: axe-core's serious and critical violations on the page as it is now, one line
// each (rule, then the elements at fault), with label-in-name on (docs/console.md, "Accessibility").
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

export async function seriousViolations(page: Page): Promise<string[]> {
  // label-content-name-mismatch is off by default in axe as experimental; WCAG 2.5.3 asks for it, and the console keeps it.
  const results = await new AxeBuilder({ page }).options({ rules: { 'label-content-name-mismatch': { enabled: true } } }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(' | ')}`);
}
