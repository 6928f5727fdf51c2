/**
 * Records every platform variant of native optional dependencies in package-lock.json.
 *
 * The registry mirror these machines reach lacks some platform builds (darwin, win32, arm64) of
 * packages such as litesvm and @nomicfoundation/edr. `npm install` then leaves those entries out
 * of the lockfile, and `npm ci` refuses the lockfile as "out of sync". Writing the missing
 * entries with their os/cpu fields lets `npm ci` skip them on this platform, exactly as it
 * would with a complete lockfile. Run after any `npm install` that changes dependencies:
 * `./npmw run lockfile:complete`.
 */
import { readFileSync, writeFileSync } from 'node:fs';

type LockEntry = { version?: string; optional?: boolean; os?: string[]; cpu?: string[]; optionalDependencies?: Record<string, string> };

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8')) as { packages: Record<string, LockEntry> };
const added: string[] = [];

function platformOf(name: string): { os?: string[]; cpu?: string[] } {
  const os = ['darwin', 'win32', 'linux', 'freebsd', 'android'].find((p) => name.includes(p));
  const cpu = ['arm64', 'x64', 'ia32', 'arm'].find((c) => new RegExp(`-${c}(-|$)`).test(name));
  return { ...(os ? { os: [os] } : {}), ...(cpu ? { cpu: [cpu] } : {}) };
}

for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${path ? `${path}/` : ''}node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (lock.packages[nested] || lock.packages[hoisted]) continue;
    lock.packages[hoisted] = { version: range.replace(/^[\^~]/, ''), optional: true, ...platformOf(name) };
    added.push(hoisted);
  }
}

writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length ? `added ${added.length} platform entries:\n  ${added.join('\n  ')}` : 'lockfile already complete');
