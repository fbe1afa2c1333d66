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
  await page.goto(`${base}/login?next=${encodeURIComponent(next)}`);
  await page.fill('input[name=email]', who.email);
  await page.fill('input[name=password]', who.password);
  await Promise.all([page.waitForURL((u) => u.pathname === next.split('?')[0]), page.click('main button[type=submit]')]);
}
