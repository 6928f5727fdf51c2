// `npm run check:ports`: every member of every port interface is exercised by that port's conformance
// suite (issue 17: "one conformance suite per port covering every method, run against every adapter").
//
// A port interface is an exported interface under server/ports/** with at least one method (records and
// option bags carry data only). Each of its members must be used by a conformance file of the port:
// called or read through the port (`storage.payments.create(`, `queue.durable`), or, for callback
// interfaces the caller hands the adapter (e.g. AdvanceContext), provided in an object literal typed as
// it (`record: ...`). Uses are resolved with the TypeScript checker, so `payments.create` and
// `merchants.create` are different members. Prints port → member → uses; exits 1 listing the unused
// members and the ports without a suite.
import { globSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Port files → the conformance suites that must cover them (globs from the repository root). */
const SUITES: Array<{ ports: string[]; suites: string }> = [
  { ports: ['server/ports/queue.ts'], suites: 'adapters/queue/conformance/**/*.ts' },
  { ports: ['server/ports/storage.ts', 'server/ports/storage/**/*.ts'], suites: 'adapters/storage/conformance/**/*.ts' },
  { ports: ['server/ports/chains.ts', 'server/ports/chain-state-*.ts'], suites: 'adapters/chains/conformance/**/*.ts' },
  { ports: ['server/ports/rate-limiter.ts'], suites: 'adapters/rate-limit/conformance/**/*.ts' },
  { ports: ['server/ports/payment-changes.ts'], suites: 'adapters/payment-changes/conformance/**/*.ts' },
  { ports: ['server/ports/http-fetch.ts'], suites: 'adapters/http-fetch/conformance/**/*.ts' },
  { ports: ['server/ports/exclusive-sections.ts'], suites: 'adapters/locks/conformance/**/*.ts' },
  { ports: ['server/ports/metrics.ts'], suites: 'adapters/metrics/conformance/**/*.ts' },
];

/** Port files with no adapter family, so no suite: what implements them instead. */
const NO_ADAPTER: Record<string, string> = {
  'server/ports/clock.ts': 'implemented beside the interface (systemClock, createManualClock); nothing under adapters/',
  'server/ports/logger.ts': 'implemented by pino in the composition root; adapters only call it',
};

interface Member {
  port: string;
  iface: string;
  name: string;
  uses: number;
}

const root = path.resolve(import.meta.dirname, '../..');
const glob = (pattern: string) => globSync(pattern, { cwd: root }).map((f) => f.split(path.sep).join('/'));
const suiteGlob = (file: string) => SUITES.find((s) => s.ports.some((p) => path.matchesGlob(file, p)))?.suites;
const isSource = (f: string) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts');

function main(): number {
  const portFiles = glob('server/ports/**/*.ts').filter(isSource).sort();
  const suiteOf = new Map<string, string[]>();
  for (const file of portFiles) {
    const entry = SUITES.find((s) => s.ports.some((p) => path.matchesGlob(file, p)));
    if (entry) suiteOf.set(file, glob(entry.suites).filter(isSource).sort());
  }
  const suiteFiles = [...new Set([...suiteOf.values()].flat())];

  const program = createProgram([...portFiles, ...suiteFiles]);
  const checker = program.getTypeChecker();

  // Every member of every port interface, keyed by its declaration node.
  const members = new Map<ts.Node, Member>();
  const portsWithInterfaces = new Set<string>();
  for (const file of portFiles) {
    const source = program.getSourceFile(path.join(root, file));
    if (!source) throw new Error(`${file}: not in the program`);
    for (const statement of source.statements) {
      if (!ts.isInterfaceDeclaration(statement) || !isExported(statement) || !statement.members.some((m) => isMethodLike(m, checker))) continue;
      portsWithInterfaces.add(file);
      for (const member of statement.members) {
        if (!member.name || !(ts.isPropertySignature(member) || ts.isMethodSignature(member))) continue;
        members.set(member, { port: file, iface: statement.name.text, name: member.name.getText(source), uses: 0 });
      }
    }
  }

  // Count the uses in each port's own suites only.
  const count = (sym: ts.Symbol | undefined, file: string) => {
    if (!sym) return;
    for (const root of checker.getRootSymbols(sym)) {
      for (const decl of root.declarations ?? []) {
        const member = members.get(decl);
        if (member && suiteOf.get(member.port)?.includes(file)) member.uses++;
      }
    }
  };
  for (const file of suiteFiles) {
    const source = program.getSourceFile(path.join(root, file));
    if (!source) throw new Error(`${file}: not in the program`);
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node)) count(checker.getSymbolAtLocation(node.name), file);
      else if (ts.isElementAccessExpression(node) && ts.isStringLiteral(node.argumentExpression)) count(checker.getSymbolAtLocation(node.argumentExpression), file);
      else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
        const name = node.propertyName ?? node.name;
        if (ts.isIdentifier(name)) count(checker.getTypeAtLocation(node.parent).getProperty(name.text), file);
      } else if (ts.isObjectLiteralExpression(node)) {
        const contextual = checker.getContextualType(node);
        for (const property of node.properties) {
          const name = property.name && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)) ? property.name.text : undefined;
          if (contextual && name) count(contextual.getProperty(name) ?? contextual.getNonNullableType().getProperty(name), file);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }

  const failures: string[] = [];
  const rows: string[][] = [['port file', 'interface', 'member', 'uses']];
  for (const file of portFiles) {
    if (!portsWithInterfaces.has(file)) continue;
    const suites = suiteOf.get(file);
    if (NO_ADAPTER[file]) continue;
    if (!suites?.length) failures.push(`${file}: no conformance suite (${suiteGlob(file) ?? 'none mapped in tools/checks/port-coverage.ts'})`);
    for (const m of [...members.values()].filter((m) => m.port === file)) {
      rows.push([file, m.iface, m.name, String(m.uses)]);
      if (suites?.length && m.uses === 0) failures.push(`${file}: ${m.iface}.${m.name} is not used by ${suiteGlob(file)}`);
    }
  }

  // Every adapter of a family runs every suite of it: adapters/<family>/<adapter>/**/*.test.ts calls each
  // exported …Conformance function (runQueueConformance, chainPortConformance); a family without
  // adapter folders is one adapter.
  const adapterRows: string[] = [];
  for (const entry of SUITES) {
    const family = /^adapters\/([^/]+)\//.exec(entry.suites)?.[1];
    const suites = glob(entry.suites).filter(isSource);
    if (!family || !suites.length) continue;
    const runners = suites.flatMap((f) => exportedRunners(program.getSourceFile(path.join(root, f))));
    const dirs = globSync(`adapters/${family}/*/`, { cwd: root })
      .map((d) => path.basename(d))
      .filter((d) => d !== 'conformance' && d !== 'test-support' && statSync(path.join(root, 'adapters', family, d)).isDirectory());
    for (const dir of dirs.length ? dirs : ['.']) {
      const tests = glob(dir === '.' ? `adapters/${family}/*.test.ts` : `adapters/${family}/${dir}/**/*.test.ts`);
      const called = new Set(tests.flatMap((f) => calledNames(f)));
      const missing = runners.filter((r) => !called.has(r));
      adapterRows.push(`adapters/${family}/${dir === '.' ? '' : `${dir}/`}: runs ${runners.filter((r) => called.has(r)).join(', ') || 'no suite'}`);
      for (const r of missing) failures.push(`adapters/${family}/${dir === '.' ? '' : `${dir}/`}: no test runs ${r}`);
    }
  }

  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const row of rows) console.log(row.map((cell, i) => (i === row.length - 1 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  '));
  const all = [...members.values()].filter((m) => !NO_ADAPTER[m.port]);
  const covered = all.filter((m) => m.uses > 0).length;
  for (const [file, why] of Object.entries(NO_ADAPTER)) if (portsWithInterfaces.has(file)) console.log(`${file}: no suite: ${why}`);
  console.log(`\n${adapterRows.join('\n')}`);
  console.log(`\n${covered} of ${all.length} port members used by their conformance suites.`);
  if (failures.length) {
    console.error(`\n${failures.length} port-coverage problem(s):\n${failures.map((f) => `  ${f}`).join('\n')}`);
    return 1;
  }
  return 0;
}

function createProgram(files: string[]): ts.Program {
  const configPath = path.join(root, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  return ts.createProgram(
    files.map((f) => path.join(root, f)),
    { ...parsed.options, noEmit: true },
  );
}

/** Names of the exported `…Conformance` suite functions of a suite file. */
function exportedRunners(source: ts.SourceFile | undefined): string[] {
  if (!source) return [];
  return source.statements
    .filter((s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && isExported(s) && /^\w+Conformance$/.test(s.name?.text ?? ''))
    .map((s) => s.name!.text);
}

/** Names of the plain functions a file calls (`runQueueConformance(...)`). */
function calledNames(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const names: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) names.push(node.expression.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

function isExported(node: ts.Declaration): boolean {
  return ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Export ? true : false;
}

/** A method signature, or a property whose type can be called. */
function isMethodLike(member: ts.TypeElement, checker: ts.TypeChecker): boolean {
  if (ts.isMethodSignature(member)) return true;
  if (!ts.isPropertySignature(member)) return false;
  return checker.getTypeAtLocation(member).getNonNullableType().getCallSignatures().length > 0;
}

process.exitCode = main();
