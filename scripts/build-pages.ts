/**
 * server/pages/wallet-page/main.ts (with the @mps/wallet code it imports) → server/pages/static/wallet.js,
 * the payment page's one browser-wallet script. The service serves that file itself: no CDN, and
 * the page's CSP stays `script-src 'self'`. It is committed, so `npm start` needs no build step.
 *
 * `--check` bundles in memory and fails when the committed file differs, so CI catches an edit of
 * the page code or of the SDK whose bundle was not rebuilt (and any hand edit of the bundle).
 * The bundle is deterministic: same sources, same bytes, no timestamps or absolute paths.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { rolldown } from 'rolldown';

const root = resolve(import.meta.dirname, '..');
const entry = join(root, 'server/pages/wallet-page/main.ts');
const out = join(root, 'server/pages/static/wallet.js');
const banner = '/* generated from server/pages/wallet-page/ and clients/wallet/src by `npm run build:pages` — do not edit */';

async function bundle(): Promise<string> {
  const build = await rolldown({ input: entry, platform: 'browser', cwd: root, logLevel: 'warn' });
  try {
    const { output } = await build.generate({ format: 'iife', banner, minify: false, sourcemap: false, comments: { legal: false } });
    const [chunk] = output;
    if (output.length !== 1 || chunk.type !== 'chunk') throw new Error(`expected one chunk, got ${output.length} outputs`);
    return chunk.code;
  } finally {
    await build.close();
  }
}

const code = await bundle();
if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(out, 'utf8');
  } catch {
    /* missing counts as stale */
  }
  if (committed !== code) {
    console.error(`${out} is stale: run \`npm run build:pages\` and commit it.`);
    process.exit(1);
  }
  console.log('server/pages/static/wallet.js matches its sources.');
} else {
  writeFileSync(out, code);
  console.log(`wrote server/pages/static/wallet.js (${code.length} bytes)`);
}
