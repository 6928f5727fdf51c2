import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { generatedOpenApiDir, loadOpenApiDocs } from './openapi-docs.ts';

describe('loadOpenApiDocs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-docs-'));
  cpSync(generatedOpenApiDir, dir, { recursive: true });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers every document as the YAML parses, a fresh copy each call', () => {
    const first = loadOpenApiDocs(dir);
    const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
    expect([...first.keys()]).toEqual(files.map((f) => f.slice(0, -'.yaml'.length)).sort());
    for (const f of files) expect(first.get(f.slice(0, -'.yaml'.length))).toEqual(parse(readFileSync(join(dir, f), 'utf8')));
    // A caller that changes what it was handed reaches nobody else's documents.
    const version = [...first.keys()][0]!;
    first.get(version)!.paths = {};
    const second = loadOpenApiDocs(dir);
    expect(Object.keys(second.get(version)!.paths).length).toBeGreaterThan(0);
  });

  it('reads a folder whose documents changed again', () => {
    const version = [...loadOpenApiDocs(dir).keys()][0]!;
    const file = join(dir, `${version}.yaml`);
    const doc = parse(readFileSync(file, 'utf8')) as { info: { title: string } };
    writeFileSync(file, readFileSync(file, 'utf8').replace(`title: ${doc.info.title}`, 'title: Edited'));
    // A later modification time even where the file system's clock is coarse.
    const later = new Date(Date.now() + 5_000);
    utimesSync(file, later, later);
    expect((loadOpenApiDocs(dir).get(version)!.info as { title: string }).title).toBe('Edited');
  });
});
