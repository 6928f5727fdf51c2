/**
 * spec/ (TypeSpec) → generated/openapi/<version>.yaml → generated/types/<version>.ts.
 *
 * It also writes generated/types/versions.ts: the spec's versions (its `Versions` enum, one
 * document each) as a runtime list, with each version's generated types beside it, so the
 * service, the tools, the partner client (which gets a copy, like every file in types/) and the
 * domain's vocabulary checks name versions from this one list.
 *
 * `--check` regenerates into a scratch folder and fails when generated/ differs, so CI catches a
 * spec edit whose output was not committed (and any hand edit of generated files).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { publishable } from './publishable-openapi.ts';

const root = resolve(import.meta.dirname, '..');
/** The partner client ships its own copy of the contract types (it must not reach outside its package). */
const partnerTypesDir = join(root, 'clients/partner/src/generated');
const check = process.argv.includes('--check');
const header = 'generated from spec/ by `npm run generate` — do not edit';

/** Compiles spec/ into `outDir`; on failure prints the compiler's diagnostics and exits. */
function runTsp(outDir: string): void {
  try {
    execFileSync(
      process.execPath,
      [
        join(root, 'node_modules/@typespec/compiler/cmd/tsp.js'),
        'compile',
        join(root, 'spec/main.tsp'),
        '--config',
        join(root, 'tspconfig.yaml'),
        '--option',
        `@typespec/openapi3.emitter-output-dir=${outDir}`,
        '--warn-as-error',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], cwd: root, encoding: 'utf8' },
    );
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    console.error(`${e.stdout ?? ''}${e.stderr ?? ''}\nTypeSpec compilation failed`);
    process.exit(1);
  }
}

async function generate(outDir: string): Promise<string[]> {
  const tspOut = mkdtempSync(join(tmpdir(), 'tsp-'));
  try {
    runTsp(tspOut);
    const versions = readdirSync(tspOut)
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => f.slice(0, -'.yaml'.length))
      .sort();
    if (versions.length === 0) throw new Error('TypeSpec produced no OpenAPI documents');
    mkdirSync(join(outDir, 'openapi'), { recursive: true });
    mkdirSync(join(outDir, 'types'), { recursive: true });
    const written: string[] = [];
    for (const version of versions) {
      const yaml = publishable(readFileSync(join(tspOut, `${version}.yaml`), 'utf8'));
      writeFileSync(join(outDir, 'openapi', `${version}.yaml`), `# ${header}\n${yaml}`);
      const ast = await openapiTS(yaml, { exportType: false, rootTypes: false });
      writeFileSync(join(outDir, 'types', `${version}.ts`), `// ${header}\n${astToString(ast)}`);
      written.push(`openapi/${version}.yaml`, `types/${version}.ts`);
      console.log(`generated ${version}`);
    }
    writeFileSync(join(outDir, 'types', 'versions.ts'), versionsModule(versions));
    written.push('types/versions.ts');
    return written;
  } finally {
    rmSync(tspOut, { recursive: true, force: true });
  }
}

/** generated/types/versions.ts for `versions` (oldest first: dated names sort by date, `.preview` after its date). */
function versionsModule(versions: string[]): string {
  const q = (v: string) => `'${v}'`;
  return [
    `// ${header}`,
    ...versions.map((v, i) => `import type { components as Components${i}, operations as Operations${i} } from './${v}.ts';`),
    '',
    '/** The API versions the spec declares (its `Versions` enum), oldest first. */',
    `export const SPEC_VERSIONS = [${versions.map(q).join(', ')}] as const;`,
    '',
    '/** One of the versions the spec declares. */',
    'export type SpecVersion = (typeof SPEC_VERSIONS)[number];',
    '',
    "/** Each version's generated contract types. */",
    'export interface SpecTypes {',
    ...versions.map((v, i) => `  ${q(v)}: { components: Components${i}; operations: Operations${i} };`),
    '}',
    '',
  ].join('\n');
}

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

if (check) {
  const scratch = mkdtempSync(join(tmpdir(), 'gen-check-'));
  try {
    await generate(scratch);
    const committed = join(root, 'generated');
    const names = [...new Set([...listFiles(scratch), ...listFiles(committed)])];
    const stale = names.filter((n) => {
      const a = join(scratch, n);
      const b = join(committed, n);
      return !existsSync(a) || !existsSync(b) || readFileSync(a, 'utf8') !== readFileSync(b, 'utf8');
    });
    for (const n of listFiles(join(scratch, 'types'))) {
      const copy = join(partnerTypesDir, n);
      if (!existsSync(copy) || readFileSync(copy, 'utf8') !== readFileSync(join(scratch, 'types', n), 'utf8')) stale.push(`clients/partner/src/generated/${n}`);
    }
    if (stale.length) {
      console.error(`generated/ is out of date with spec/ (run \`npm run generate\` and commit):\n  ${stale.join('\n  ')}`);
      process.exit(1);
    }
    console.log('generated/ is up to date');
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
} else {
  rmSync(join(root, 'generated'), { recursive: true, force: true });
  await generate(join(root, 'generated'));
  rmSync(partnerTypesDir, { recursive: true, force: true });
  mkdirSync(partnerTypesDir, { recursive: true });
  for (const f of listFiles(join(root, 'generated/types'))) writeFileSync(join(partnerTypesDir, f), readFileSync(join(root, 'generated/types', f)));
  console.log('copied the types into clients/partner/src/generated');
}
