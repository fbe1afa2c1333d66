// Chromium for the browser tests. Locally a missing Chromium skips them (with the reason);
// under CI (CI=true) it is a failure: a green CI run must have run them.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** false when Chromium is there; the skip reason when not (throws under CI instead). */
export function browserSkip(): false | string {
  if (existsSync(CHROMIUM)) return false;
  if (process.env.CI === 'true' || process.env.CI === '1') throw new Error(`${CHROMIUM} is required for the browser tests under CI (apt-get install -y chromium)`);
  return `${CHROMIUM} is not installed (apt-get install -y chromium)`;
}

/**
 * Each browser test's own time-out: a guard against a hang, not a speed check. Without it a
 * stuck browser call runs into the file's --test-timeout (300 s), which cancels the whole file
 * and reports it by its path, hiding which test hung and skipping the rest.
 */
export const BROWSER_TEST_TIMEOUT_MS = 120_000;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}

/** Signs in through the form and waits for the page it leads to. */
export async function signInAs(page: Page, base: string, who: { email: string; password: string }, next = '/'): Promise<void> {
  await page.goto(`${base}/login?method=password&next=${encodeURIComponent(next)}`);
  await page.fill('input[name=email]', who.email);
  await page.fill('input[name=password]', who.password);
  await Promise.all([page.waitForURL((u) => u.pathname === next.split('?')[0]), page.click('main button[type=submit]')]);
}

// The browser's DOM, as far as screenshots() uses it (the project compiles without lib.dom).
declare const document: { documentElement: { scrollWidth: number; clientWidth: number; scrollHeight: number } };

/**
 * Whole-page screenshots at a desktop and a phone width, into `dir` as `<name>-<width>.png`,
 * checking that neither width scrolls sideways. The viewport is made as tall as the page (up to
 * 3,000 px) instead of asking for a full-page capture, which is a known way for headless Chromium
 * to hang (see dashboard.test.ts).
 */
export async function screenshots(page: Page, name: string, dir: URL): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    if (overflow > 1) throw new Error(`${name} at ${width} px scrolls sideways (overflow ${overflow} px)`);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width, height: Math.min(Math.max(height, 900), 3_000) });
    await page.screenshot({ path: new URL(`${name}-${width}.png`, dir).pathname });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}
