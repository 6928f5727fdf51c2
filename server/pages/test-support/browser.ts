import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/**
 * Debian's chromium driven by playwright-core, for the buyer-page tests. No download: CI
 * installs the `chromium` package. Every page records what would break a buyer silently: script
 * errors, CSP violations (console errors) and requests leaving the service (a CDN).
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SHOTS_DIR = join(import.meta.dirname, '../../../test-results/pages');

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH`);
  mkdirSync(SHOTS_DIR, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

export interface WatchedPage {
  page: Page;
  /** Console errors and uncaught exceptions seen so far. */
  problems: string[];
  /** Requests to any origin other than the service's. */
  foreign: string[];
  /** Saves test-results/pages/<name>.png: the whole page, or only the viewport for long pages. */
  shot(name: string, opts?: { fullPage?: boolean }): Promise<void>;
}

/** A phone-sized page (iPhone 12-ish) that notes problems; `allowOrigins` are origins the test routes itself. */
export function phonePage(browser: Browser, serviceUrl: string, allowOrigins: string[] = []): Promise<WatchedPage> {
  return watchedPage(browser, serviceUrl, allowOrigins, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
}

/** A 1280-pixel desktop page that notes problems the same way. */
export function desktopPage(browser: Browser, serviceUrl: string): Promise<WatchedPage> {
  return watchedPage(browser, serviceUrl, [], { viewport: { width: 1280, height: 900 } });
}

async function watchedPage(
  browser: Browser,
  serviceUrl: string,
  allowOrigins: string[],
  device: { viewport: { width: number; height: number }; isMobile?: boolean; hasTouch?: boolean },
): Promise<WatchedPage> {
  const context = await browser.newContext({ ...device, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const problems: string[] = [];
  const foreign: string[] = [];
  const ours = new Set([new URL(serviceUrl).origin, ...allowOrigins]);
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(String(e)));
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.protocol.startsWith('http') && !ours.has(u.origin)) foreign.push(r.url());
  });
  return { page, problems, foreign, shot: async (name, opts) => void (await page.screenshot({ path: join(SHOTS_DIR, `${name}.png`), fullPage: opts?.fullPage ?? true })) };
}
