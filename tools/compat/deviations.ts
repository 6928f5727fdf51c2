import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import YAML from 'yaml';
import { VERSIONS, type Difference } from './compare-openapi.ts';

/**
 * compat/deviations.yaml: every breaking difference from the reference we accept, with why.
 *
 * A key is `<operation> <location> <kind>`, e.g. `POST /v1/payments response.404 undocumented-status`.
 * The operation may be `*` (a rule that holds for every operation, such as rate limiting) and
 * the location may hold `*` (e.g. `response.*.body.code`); nothing else is a pattern, so an entry
 * tolerates exactly what it names. `versions` narrows an entry to some API versions (default all).
 * `checkedBy: test` marks a difference only the compatibility test can see (a value our schema
 * allows and the reference refuses at run time); the OpenAPI comparison does not expect it.
 */
export interface Deviation {
  key: string;
  reason: string;
  versions?: string[];
  /** What removes it, when it is temporary (e.g. "issue 16 item 3"). */
  pending?: string;
  checkedBy?: 'test';
}

export interface ParsedDeviation extends Deviation {
  operation: RegExp;
  location: RegExp;
  kind: string;
}

const root = resolve(import.meta.dirname, '../..');
export const deviationsPath = join(root, 'compat/deviations.yaml');
const interfaceSpecPath = resolve(root, '../shared/interface-spec.md');

const glob = (text: string) =>
  new RegExp(
    `^${text
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );

export function parseKey(key: string): { operation: string; location: string; kind: string } {
  const parts = key.trim().split(/\s+/);
  if (parts.length < 3) throw new Error(`deviation key "${key}" is not "<operation> <location> <kind>"`);
  const kind = parts.pop()!;
  const location = parts.pop()!;
  return { operation: parts.join(' '), location, kind };
}

export function loadDeviations(path = deviationsPath): ParsedDeviation[] {
  const raw = (YAML.parse(readFileSync(path, 'utf8')) ?? []) as Deviation[];
  if (!Array.isArray(raw)) throw new Error(`${path}: expected a list of deviations`);
  return raw.map((d) => {
    const { operation, location, kind } = parseKey(d.key);
    return { ...d, operation: glob(operation), location: glob(location), kind };
  });
}

export const appliesTo = (d: ParsedDeviation, version: string) => !d.versions || d.versions.includes(version);

export function matches(d: ParsedDeviation, version: string, diff: Pick<Difference, 'operation' | 'location' | 'kind'>): boolean {
  return appliesTo(d, version) && d.kind === diff.kind && d.operation.test(diff.operation) && d.location.test(diff.location);
}

/** Problems with the file itself: unreadable keys, missing or placeholder reasons, unknown sections. */
export function lintDeviations(list: ParsedDeviation[]): string[] {
  const problems: string[] = [];
  const sections = existsSync(interfaceSpecPath)
    ? readFileSync(interfaceSpecPath, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('#'))
        .map((l) => l.replace(/^#+\s*/, '').trim())
    : null;
  const seen = new Set<string>();
  for (const d of list) {
    const id = deviationId(d);
    if (seen.has(id)) problems.push(`listed twice: ${id}`);
    seen.add(id);
    for (const v of d.versions ?? []) if (!(VERSIONS as readonly string[]).includes(v)) problems.push(`${d.key}: unknown version ${v}`);
    const reason = (d.reason ?? '').trim();
    if (!reason || /^TODO\b/.test(reason)) {
      problems.push(`${d.key}: reason TODO — say why (interface § <section>: …, improvement: …, or pending: …) or fix the difference`);
      continue;
    }
    const cited = /^interface § ([^:]+):/.exec(reason);
    if (!cited && !/^(improvement|pending):/.test(reason)) problems.push(`${d.key}: reason must start with "interface § <section>:", "improvement:" or "pending:"`);
    if (cited && sections && !sections.some((s) => s === cited[1]!.trim())) problems.push(`${d.key}: interface-spec.md has no section "${cited[1]}"`);
  }
  return problems;
}

/** Appends entries with `reason: TODO` (CI fails until a person writes the reason). */
export function appendMissing(differences: Difference[], path = deviationsPath): number {
  const byKey = new Map<string, Set<string>>();
  for (const d of differences) {
    const key = `${d.operation} ${d.location} ${d.kind}`;
    byKey.set(key, (byKey.get(key) ?? new Set()).add(d.version));
  }
  if (!byKey.size) return 0;
  const entries = [...byKey].map(([key, versions]) => ({ key, reason: 'TODO', ...(versions.size < VERSIONS.length ? { versions: [...versions].sort() } : {}) }));
  const text = `\n# Appended by \`npm run compat:openapi -- --write-missing\`: write each reason, or fix the difference.\n${YAML.stringify(entries, { lineWidth: 0 })}`;
  writeFileSync(path, readFileSync(path, 'utf8').replace(/\n*$/, '\n') + text);
  return entries.length;
}

/** One entry's identity across loads of the file (its key and versions). */
export const deviationId = (d: Deviation) => `${d.key}${d.versions ? ` [${d.versions.join(', ')}]` : ''}`;

/**
 * Removes entries no version needs any more; narrows `versions` of entries some version no longer
 * needs. `used` maps deviationId → versions in which the entry matched a difference.
 */
export function prune(used: Map<string, Set<string>>, path = deviationsPath): number {
  const doc = YAML.parseDocument(readFileSync(path, 'utf8'));
  const list = doc.contents as YAML.YAMLSeq<YAML.YAMLMap>;
  const parsed = loadDeviations(path);
  let changed = 0;
  for (let i = list.items.length - 1; i >= 0; i--) {
    const d = parsed[i]!;
    if (d.checkedBy === 'test') continue;
    const versions = [...(used.get(deviationId(d)) ?? [])];
    const applicable = VERSIONS.filter((v) => appliesTo(d, v));
    if (!versions.length) {
      // A group's heading comment belongs to its first entry in the YAML tree: keep it with the next one.
      const [removed] = list.items.splice(i, 1);
      const next = list.items[i];
      if (removed?.commentBefore && next) next.commentBefore = [removed.commentBefore, next.commentBefore].filter(Boolean).join('\n');
      if (removed?.spaceBefore && next) next.spaceBefore = true;
      changed++;
    } else if (versions.length < applicable.length) {
      list.items[i]!.set('versions', doc.createNode(versions.sort(), { flow: true }));
      changed++;
    }
  }
  if (changed) writeFileSync(path, doc.toString({ lineWidth: 0, flowCollectionPadding: false }));
  return changed;
}

/** The table of deviations in docs/compatibility.md, generated from the file so the two cannot disagree. */
export function deviationsTable(list: Deviation[]): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
  const rows = list.map((d) => {
    const { operation, location, kind } = parseKey(d.key);
    const versions = d.versions ? d.versions.join(', ') : 'all';
    return `| \`${cell(operation)}\` | \`${cell(location)}\` | ${cell(kind)} | ${versions} | ${cell(d.reason)} | ${cell(d.pending ?? '')} |`;
  });
  return ['| Operation | Where | Difference | Versions | Reason | Goes away with |', '| --- | --- | --- | --- | --- | --- |', ...rows].join('\n');
}
