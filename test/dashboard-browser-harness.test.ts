import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../server/pages/test-support/browser.ts';
import { checkPage, watchedPage, type WatchedPage } from './helpers/dashboard-browser.ts';

/** The dashboard browser tests' page watcher fails a page for each kind of problem it is there to catch. */
const PAGES: Record<string, string> = {
  // An inline script under a scripts-from-'self' CSP: blocked, a violation.
  '/csp': `<!doctype html><html lang="en"><head><title>t</title><meta http-equiv="Content-Security-Policy" content="script-src 'self'"></head><body><main><h1>t</h1><script>1</script></main></body></html>`,
  '/console': `<!doctype html><html lang="en"><head><title>t</title></head><body><main><h1>t</h1><script>console.error('boom')</script></main></body></html>`,
  // Never answered (port 9 on a documentation address): only the attempt counts.
  '/foreign': `<!doctype html><html lang="en"><head><title>t</title></head><body><main><h1>t</h1><img alt="x" src="http://192.0.2.1:9/x.png"></main></body></html>`,
  // A text field without a label: a critical axe violation, and nothing else wrong.
  '/axe': `<!doctype html><html lang="en"><head><title>t</title></head><body><main><h1>t</h1><input type="text"></main></body></html>`,
};

let server: Server;
let base = '';
let browser: Browser;
beforeAll(async () => {
  server = createServer((req, res) => {
    const html = PAGES[req.url ?? ''];
    res.writeHead(html ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' }).end(html ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe('dashboard browser harness', () => {
  const problem = (w: WatchedPage) => w.problems.join('\n');
  it.each([
    ['/csp', (w: WatchedPage) => expect(problem(w)).toMatch(/CSP violation: script-src/)],
    ['/console', (w: WatchedPage) => expect(problem(w)).toMatch(/boom/)],
    ['/foreign', (w: WatchedPage) => expect(w.foreign).toEqual(['http://192.0.2.1:9/x.png'])],
    ['/axe', (w: WatchedPage) => expect(w.problems.concat(w.foreign)).toEqual([])],
  ])(
    'fails a page with a problem: %s',
    async (path, caught) => {
      const w = await watchedPage(browser, base);
      await w.page.goto(`${base}${path}`, { waitUntil: 'load' });
      const failure = await checkPage(w, `harness-never-${path.slice(1)}`).then(
        () => 'passed',
        (err: Error) => err.message,
      );
      expect(failure).toMatch(new RegExp(`^harness-never-${path.slice(1)}`));
      if (path === '/axe') expect(failure).toMatch(/label/);
      caught(w);
      await w.context.close();
    },
    30_000,
  );
});
