// Copies the generated contract types (../../generated/types) into src/generated, so the published
// package carries its own copy and never reaches outside itself. `--check` only compares, for tests/CI.
import { readdirSync, readFileSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const sourceDir = join(packageDir, '..', '..', 'generated', 'types');
export const targetDir = join(packageDir, 'src', 'generated');

/** File names (and contents) of the contract as generated at the root, newest version last. */
export function generatedTypeFiles(): { name: string; text: string }[] {
  return readdirSync(sourceDir)
    .filter((name) => name.endsWith('.ts'))
    .sort()
    .map((name) => ({ name, text: readFileSync(join(sourceDir, name), 'utf8') }));
}

/** Names of files in src/generated that differ from, lack or exceed the root generation. */
export function staleFiles(): string[] {
  const wanted = generatedTypeFiles();
  const present = new Set(readdirSync(targetDir).filter((name) => name.endsWith('.ts')));
  const stale = wanted.filter(({ name, text }) => !present.has(name) || readFileSync(join(targetDir, name), 'utf8') !== text).map(({ name }) => name);
  const extra = [...present].filter((name) => !wanted.some((w) => w.name === name));
  return [...stale, ...extra];
}

function sync(): void {
  rmSync(targetDir, { recursive: true, force: true });
  mkdirSync(targetDir, { recursive: true });
  for (const { name, text } of generatedTypeFiles()) writeFileSync(join(targetDir, name), text);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) {
    const stale = staleFiles();
    if (stale.length > 0) {
      console.error(`clients/partner/src/generated is out of date (${stale.join(', ')}): run npm run sync-types -w @mps/partner`);
      process.exit(1);
    }
  } else {
    sync();
  }
}
