import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import axe from 'axe-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Where every dashboard browser test photographs its pages: test-results/ on every run, so a test
 * run never changes the checkout; docs/screenshots/dashboard/ (which the guides show) only when
 * UPDATE_SCREENSHOTS=1 asks to regenerate them.
 */
const SHOTS = join(import.meta.dirname, process.env.UPDATE_SCREENSHOTS === '1' ? '../../docs/screenshots/dashboard' : '../../test-results/dashboard');
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** A browser page on the dashboard and everything it did wrong since the last check. */
export interface WatchedPage {
  context: BrowserContext;
  page: Page;
  /** Console errors, page errors and CSP violations. */
  problems: string[];
  /** Requests to any origin but the service's: the dashboard uses no CDN. */
  foreign: string[];
}

/**
 * A new browser context and page on the service at `baseUrl`, watched for console errors, uncaught
 * page errors, CSP violations (reported by the page's own `securitypolicyviolation` event as well
 * as the console) and requests leaving the service; confirmation dialogs are accepted.
 * `expectedErrorStatuses`: HTTP statuses a step answers on purpose (e.g. 401 for a wrong
 * password), whose "Failed to load resource" console lines are then not problems.
 */
export async function watchedPage(browser: Browser, baseUrl: string, o: { expectedErrorStatuses?: number[]; acceptDownloads?: boolean } = {}): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: DESKTOP, deviceScaleFactor: 1, ...(o.acceptDownloads ? { acceptDownloads: true } : {}) });
  const problems: string[] = [];
  const foreign: string[] = [];
  const origin = new URL(baseUrl).origin;
  const expected = o.expectedErrorStatuses?.length
    ? new RegExp(`^Failed to load resource: the server responded with a status of (${o.expectedErrorStatuses.join('|')})\\b`)
    : undefined;
  await context.exposeBinding('__reportCspViolation', (_source, text: string) => void problems.push(`CSP violation: ${text}`));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (globalThis as unknown as { __reportCspViolation(text: string): Promise<void> }).__reportCspViolation;
      void report(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} in ${e.sourceFile || e.documentURI}`);
    });
  });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error' && !expected?.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(String(e)));
  page.on('request', (r) => {
    if (new URL(r.url()).origin !== origin) foreign.push(r.url());
  });
  page.on('dialog', (d) => void d.accept());
  return { context, page, problems, foreign };
}

/**
 * The page as it stands has no serious or critical axe-core violation, and nothing went wrong on
 * it (or before it, since the page was opened); then it is photographed at desktop and phone width
 * as `<name>-desktop.png` and `<name>-phone.png`.
 */
export async function checkPage(w: WatchedPage, name: string): Promise<void> {
  await w.page.evaluate(axe.source);
  const violations = await w.page.evaluate(async () => {
    const r = await (globalThis as unknown as { axe: { run(ctx: unknown, o: unknown): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> } }).axe.run(
      document,
      { resultTypes: ['violations'] },
    );
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
  expect(
    violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
    name,
  ).toEqual([]);
  expect(w.problems, name).toEqual([]);
  expect(w.foreign, name).toEqual([]);
  mkdirSync(SHOTS, { recursive: true });
  await w.page.screenshot({ path: join(SHOTS, `${name}-desktop.png`), fullPage: true });
  await w.page.setViewportSize(PHONE);
  await w.page.screenshot({ path: join(SHOTS, `${name}-phone.png`), fullPage: true });
  await w.page.setViewportSize(DESKTOP);
}
