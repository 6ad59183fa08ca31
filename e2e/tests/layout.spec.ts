// Layout: every page of the console at 1280x800 and on a narrow 400 px window: no sideways scrolling of the page, and
// the page's main controls shown within the window's width (docs/console.md, "Layout and the build"). Screenshots as
// artifacts.
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { expect, type Locator, type Page, test } from '@playwright/test';
import { memberKey, signIn } from './demo.ts';

const SHEET = encodeURIComponent('sheets/support.rules.yaml');
const POLICY = encodeURIComponent('policies/refunds.policy.json');

interface PageCase {
  name: string;
  hash: string;
  /** The controls a person needs on this page. */
  controls: (page: Page) => Locator[];
}

const PAGES: PageCase[] = [
  {
    name: 'documents',
    hash: '#/documents',
    controls: (page) => [page.getByRole('list', { name: 'policy' }).getByRole('button').first()],
  },
  {
    name: 'editor',
    hash: `#/edit/${SHEET}`,
    controls: (page) => [
      // Monaco's own box: its lines inside may run wider, clipped and scrolled by the editor.
      page.locator('.code-editor-host .monaco-editor'),
      page.getByLabel('Reason for the edit'),
      page.getByRole('button', { name: 'Save', exact: true }),
      page.getByRole('heading', { name: 'Problems' }),
      page.getByRole('figure', { name: 'Colang' }),
    ],
  },
  {
    name: 'history',
    hash: `#/history/${POLICY}`,
    controls: (page) => [
      page.getByRole('heading', { name: /^History of / }),
      page.getByRole('list', { name: 'Versions' }).getByRole('listitem').first(),
      page.getByLabel('From version'),
      page.getByLabel('To version'),
    ],
  },
  {
    name: 'approvals',
    hash: '#/approvals',
    controls: (page) => [page.getByRole('tab', { name: 'Pending' }), page.getByRole('tab', { name: 'Decided' })],
  },
  {
    name: 'upstreams',
    hash: '#/upstreams',
    controls: (page) => [page.getByRole('heading', { name: 'Upstreams' }), page.getByRole('button', { name: 'Refresh upstreams' })],
  },
  {
    name: 'gateways',
    hash: '#/gateways',
    // The table scrolls sideways inside its pane at 400 px, as the decisions table does.
    controls: (page) => [
      page.getByRole('heading', { name: 'Gateways' }),
      page.getByRole('region', { name: 'Gateway nodes, scrolls sideways' }),
    ],
  },
  {
    name: 'simulation',
    hash: '#/simulation',
    controls: (page) => [page.getByLabel('Policy document'), page.getByRole('button', { name: 'Run' })],
  },
  {
    name: 'playground',
    hash: '#/playground',
    controls: (page) => [page.locator('.code-editor-host .monaco-editor'), page.getByRole('status').first()],
  },
];

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 400, height: 800 },
];

/** Visible, and once scrolled to, inside the window from left to right. */
async function expectWithinWidth(control: Locator, width: number): Promise<void> {
  await expect(control).toBeVisible();
  await control.scrollIntoViewIfNeeded();
  const box = await control.boundingBox();
  expect(box, 'the control has a box').not.toBeNull();
  if (box === null) return;
  expect(box.x, 'the control starts inside the window').toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, 'the control ends inside the window').toBeLessThanOrEqual(width + 0.5);
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  // Measured after a frame, so Monaco's automatic layout has settled to the new width.
  const overflow = await page.evaluate(
    () =>
      new Promise<{ scroll: number; inner: number; widest: string }>((resolve) =>
        requestAnimationFrame(() => {
          const inner = window.innerWidth;
          // Names the widest element past the edge, so a failure says what to fix.
          let widest = '';
          let right = inner;
          for (const element of document.body.querySelectorAll('*')) {
            const r = element.getBoundingClientRect().right + window.scrollX;
            if (r > right) {
              right = r;
              widest = `${element.tagName.toLowerCase()}.${String(element.className).split(' ').join('.')}`;
            }
          }
          resolve({ scroll: document.documentElement.scrollWidth, inner, widest });
        }),
      ),
  );
  expect(overflow.scroll, `the page scrolls sideways (widest: ${overflow.widest})`).toBeLessThanOrEqual(overflow.inner);
}

for (const viewport of VIEWPORTS) {
  const size = `${viewport.width}x${viewport.height}`;
  test.describe(`at ${size}`, () => {
    test.use({ viewport });

    test(`every page fits the window's width with its controls in view at ${size}`, async ({ page }) => {
      // Eight pages, each with every navigation link measured: about 20 s on a quiet machine, more on a busy one.
      test.setTimeout(90_000);
      await signIn(page, memberKey('owner'));
      const nav = page.getByRole('navigation', { name: 'Main' });
      for (const target of PAGES) {
        await test.step(target.name, async () => {
          await page.goto(`/${target.hash}`);
          for (const control of target.controls(page)) await expectWithinWidth(control, viewport.width);
          for (const link of await nav.getByRole('link').all()) await expectWithinWidth(link, viewport.width);
          await expectWithinWidth(page.getByRole('button', { name: 'Sign out' }), viewport.width);
          await page.screenshot({ path: `test-results/screens/layout-${target.name}-${size}.png`, fullPage: true });
          await expectNoSidewaysScroll(page);
        });
      }
    });
  });
}
