import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SPEC_VERSIONS } from '../generated/types/versions.ts';

// Every operation of every published version carries a summary, a response example and an example
// of each input it requires (its body, its required path, query and header parameters), written as
// @opExample in spec/; each example is valid against the schema it illustrates, so an example that
// drifts from its schema fails here, not in a reader's client. A parameter shared through
// components (Merchant-Id, the list filters) carries the example of the first operation using it.

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
type Json = Record<string, any>;
const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

interface Sample {
  where: string;
  schemaAt: string;
  value: unknown;
}

function examplesOf(media: Json | undefined): unknown[] {
  if (!media) return [];
  return [...(media.example !== undefined ? [media.example] : []), ...Object.values((media.examples ?? {}) as Record<string, { value: unknown }>).map((e) => e.value)];
}

function load(version: string) {
  const doc = parse(readFileSync(join(import.meta.dirname, `../generated/openapi/${version}.yaml`), 'utf8')) as Json;
  const ops: { id: string; summary?: string; request: Sample[]; response: Sample[]; unillustrated: string[] }[] = [];
  for (const [path, item] of Object.entries(doc.paths as Json))
    for (const [method, op] of Object.entries(item as Json)) {
      if (!op?.operationId) continue;
      const at = `#/${pointer('paths', path, method)}`;
      const request: Sample[] = [];
      const unillustrated: string[] = [];
      const body = op.requestBody?.content?.['application/json'];
      for (const v of examplesOf(body))
        request.push({ where: `${op.operationId} request body`, schemaAt: `${at}/${pointer('requestBody', 'content', 'application/json', 'schema')}`, value: v });
      if (body && examplesOf(body).length === 0) unillustrated.push('body');
      (op.parameters as Json[] | undefined)?.forEach((ref, i) => {
        const name = typeof ref.$ref === 'string' ? ref.$ref.split('/').pop()! : undefined;
        const p = name ? (doc.components.parameters as Json)[name] : ref;
        const schemaAt = name ? `#/${pointer('components', 'parameters', name, 'schema')}` : `${at}/parameters/${i}/schema`;
        for (const v of examplesOf(p)) request.push({ where: `${op.operationId} parameter ${p.name}`, schemaAt, value: v });
        if (p.required && examplesOf(p).length === 0) unillustrated.push(`${p.in} ${p.name}`);
      });
      const response: Sample[] = [];
      for (const [code, r] of Object.entries(op.responses as Json))
        for (const v of examplesOf((r as Json).content?.['application/json']))
          response.push({ where: `${op.operationId} ${code}`, schemaAt: `${at}/${pointer('responses', code, 'content', 'application/json', 'schema')}`, value: v });
      ops.push({ id: op.operationId, summary: op.summary, request, response, unillustrated });
    }
  const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
  ajv.addSchema(doc, 'doc');
  const errorsOf = (s: Sample) => {
    const validate = ajv.getSchema(`doc${s.schemaAt}`)!;
    return validate(s.value) ? [] : (validate.errors ?? []).map((e) => `${s.where}: ${e.instancePath || '/'} ${e.message}`);
  };
  return { ops, errorsOf };
}

describe.each(SPEC_VERSIONS)('OpenAPI %s examples', (version) => {
  const { ops, errorsOf } = load(version);

  it('every operation has a summary, a response example and an example of each input it requires', () => {
    expect(ops.length).toBeGreaterThan(30);
    expect(ops.filter((o) => !o.summary).map((o) => o.id)).toEqual([]);
    expect(ops.filter((o) => o.response.length === 0).map((o) => o.id)).toEqual([]);
    expect(ops.flatMap((o) => o.unillustrated.map((what) => `${o.id}: ${what}`))).toEqual([]);
    // Every operation with an input shows one; the endpoint list has none but the version headers.
    expect(ops.filter((o) => o.request.length === 0).map((o) => o.id)).toEqual(['listWebhookEndpoints']);
  });

  it('every example is valid against its schema', () => {
    const samples = ops.flatMap((o) => [...o.request, ...o.response]);
    expect(samples.length).toBeGreaterThan(60);
    expect(samples.flatMap(errorsOf)).toEqual([]);
  });

  it('the check catches an example that drifts from its schema', () => {
    const create = ops.find((o) => o.id === 'createPayment')!.response[0]!;
    const { paymentId: _dropped, ...rest } = create.value as Json;
    expect(errorsOf({ ...create, value: rest })).toEqual([`${create.where}: / must have required property 'paymentId'`]);
    expect(errorsOf({ ...create, value: { ...(create.value as Json), status: 'paid' } }).join()).toContain('/status must be equal to one of the allowed values');
  });
});
