import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import YAML from 'yaml';
import { deref, type Doc, type Json, type Schema } from './schema-model.ts';
import { schemaDifferences } from './schema-diff.ts';
import { SPEC_VERSIONS } from '../../generated/types/versions.ts';

/**
 * Our generated OpenAPI documents against the reference system's, direction-aware: a request the
 * reference accepts must be accepted by us, a response we send must be valid for the reference.
 *
 * Why not a diff tool: we measured `api-smart-diff` 1.0.6 (the maintained npm candidate that
 * classifies changes) on these documents: 2 075 changes, most of them noise (parameters compared
 * by array index, so the reference's auth header parameters against our security schemes show as
 * removals; TypeSpec's `allOf` wrappers and 3.0 `nullable` against 3.1 `type: [x, "null"]` show as
 * structural changes), and on small cases it calls a response field the reference forbids and a
 * response that became nullable "non-breaking". `@azure/oad` reads Swagger 2.0 through AutoRest
 * (which downloads its core at run time, so not offline) and `openapi-diff` stops at OpenAPI 3.0.
 * None answers "would a reference client notice?", so this small checker does.
 */

/** The versions compared: every one the spec declares. */
export const VERSIONS = SPEC_VERSIONS;

const root = resolve(import.meta.dirname, '../..');
export const ourDocumentPath = (v: string) => join(root, 'generated/openapi', `${v}.yaml`);
const publishedPath = (v: string) => join(root, 'compat/reference', `openapi-${v}.json`);

/**
 * The reference document `v` is compared with: the reference system's own for `v`, or, for a
 * version only we publish (e.g. 2026-11-27), the newest reference before it: a newer version of
 * ours may add to what that one says, never break what a client written against it relies on.
 */
export function referenceDocumentPath(v: string): string {
  const published = VERSIONS.slice(0, VERSIONS.indexOf(v as (typeof VERSIONS)[number]) + 1).filter((x) => existsSync(publishedPath(x)));
  const newest = published.at(-1);
  if (!newest) throw new Error(`no reference document for ${v} or any version before it in compat/reference/`);
  return publishedPath(newest);
}

export function loadDocuments(version: string): { ours: Doc; reference: Doc } {
  return {
    ours: { root: YAML.parse(readFileSync(ourDocumentPath(version), 'utf8')) as Schema },
    reference: { root: JSON.parse(readFileSync(referenceDocumentPath(version), 'utf8')) as Schema },
  };
}

export interface Difference {
  version: string;
  /** `METHOD /path` as the reference spells it (ours for our extra operations). */
  operation: string;
  /** `operation`, `security`, `request.query.limit`, `request.body.amount.unit`, `response.403`, `response.200.body.info`, `response.200.header.WCP-Version`. */
  location: string;
  kind: string;
  detail: string;
  breaking: boolean;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
/** The reference declares these as header parameters; we declare them as security schemes. */
const AUTH_HEADERS = new Set(['api-key', 'app-id', 'client-id', 'x-api-key']);

interface Operation {
  method: string;
  path: string;
  op: Schema;
  pathItem: Schema;
}

/** `/v1/merchants/{merchant_id}/payments` and `/v1/merchants/{merchantId}/payments` are one route. */
const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`;

function operations(doc: Doc): Map<string, Operation> {
  const out = new Map<string, Operation>();
  for (const [path, item] of Object.entries((doc.root.paths ?? {}) as Record<string, Schema>)) {
    for (const method of METHODS) {
      const op = item[method];
      if (op && typeof op === 'object' && !Array.isArray(op)) out.set(routeKey(method, path), { method: method.toUpperCase(), path, op, pathItem: item });
    }
  }
  return out;
}

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  schema: Json | undefined;
}

function parameters(doc: Doc, o: Operation): Parameter[] {
  const all = [...((o.pathItem.parameters ?? []) as Json[]), ...((o.op.parameters ?? []) as Json[])].map((p) => deref(doc, p));
  return all.map((p) => ({ name: asText(p.name), in: asText(p.in), required: p.required === true, schema: p.schema }));
}

/** A name field of the document as text: names are strings; anything else shows as JSON. */
const asText = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? 'undefined'));

const paramId = (p: Parameter) => `${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`;

/** Header names of the security requirements in force (the operation's, else the document's). */
function securityHeaders(doc: Doc, o: Operation): { names: Set<string>; fromDocumentDefault: boolean } {
  const requirements = (o.op.security ?? doc.root.security ?? []) as Array<Record<string, unknown>>;
  const schemes = ((doc.root.components as Schema | undefined)?.securitySchemes ?? {}) as Record<string, Schema>;
  const names = new Set<string>();
  for (const requirement of requirements)
    for (const scheme of Object.keys(requirement)) if (schemes[scheme]?.in === 'header') names.add(asText(schemes[scheme].name).toLowerCase());
  return { names, fromDocumentDefault: o.op.security === undefined };
}

const jsonSchemaOf = (doc: Doc, holder: Json | undefined): { present: boolean; required: boolean; schema: Json | undefined; types: string[] } => {
  const h = deref(doc, holder);
  const content = (h.content ?? {}) as Record<string, Schema>;
  const types = Object.keys(content);
  const json = content['application/json'];
  return { present: holder !== undefined, required: h.required === true, schema: json?.schema, types };
};

export function compareVersion(version: string): { differences: Difference[]; operations: number } {
  const { ours, reference } = loadDocuments(version);
  const refOps = operations(reference);
  const ourOps = operations(ours);
  const differences: Difference[] = [];
  for (const [route, ref] of refOps) {
    const operation = `${ref.method} ${ref.path}`;
    const add = (location: string, kind: string, detail: string, breaking = true) => differences.push({ version, operation, location, kind, detail, breaking });
    const our = ourOps.get(route);
    if (!our) {
      add('operation', 'missing', 'the reference has this operation; we do not');
      continue;
    }
    compareSecurity(reference, ours, ref, our, add);
    compareParameters(reference, ours, ref, our, add);
    compareRequestBody(reference, ours, ref, our, add);
    compareResponses(reference, ours, ref, our, add);
  }
  for (const [route, our] of ourOps) {
    if (!refOps.has(route))
      differences.push({
        version,
        operation: `${our.method} ${our.path}`,
        location: 'operation',
        kind: 'extra',
        detail: 'ours only (fine: clients of the reference never call it)',
        breaking: false,
      });
  }
  return { differences, operations: refOps.size };
}

type Add = (location: string, kind: string, detail: string, breaking?: boolean) => void;

function compareSecurity(reference: Doc, ours: Doc, ref: Operation, our: Operation, add: Add): void {
  // Equivalent declarations are equal: the reference's auth header parameters and our security
  // schemes name the same headers. The reference's document-wide default lists wallet and partner
  // schemes together, so where an operation relies on it we only require that we ask for nothing
  // it does not name.
  const refParams = parameters(reference, ref).filter((p) => p.in === 'header' && AUTH_HEADERS.has(p.name.toLowerCase()));
  const refSecurity = securityHeaders(reference, ref);
  const refNames = refParams.length ? new Set([...refParams.map((p) => p.name.toLowerCase()), ...(ref.op.security ? refSecurity.names : [])]) : refSecurity.names;
  const ourNames = securityHeaders(ours, our).names;
  for (const p of parameters(ours, our)) if (p.in === 'header' && AUTH_HEADERS.has(p.name.toLowerCase())) ourNames.add(p.name.toLowerCase());
  for (const name of ourNames) if (!refNames.has(name)) add(`security.${name}`, 'unknown-auth-header', `we authenticate with ${name}, which the reference does not declare here`);
  const refIsSpecific = refParams.length > 0 || !refSecurity.fromDocumentDefault;
  if (refIsSpecific)
    for (const name of refNames) if (!ourNames.has(name)) add(`security.${name}`, 'missing-auth-header', `reference clients authenticate with ${name}; we do not accept it`);
}

function compareParameters(reference: Doc, ours: Doc, ref: Operation, our: Operation, add: Add): void {
  const isAuth = (p: Parameter) => p.in === 'header' && AUTH_HEADERS.has(p.name.toLowerCase());
  const refParams = parameters(reference, ref).filter((p) => !isAuth(p));
  const ourParams = new Map(
    parameters(ours, our)
      .filter((p) => !isAuth(p))
      .map((p) => [paramId(p), p]),
  );
  // Path parameters match by position, whatever each side calls them.
  const ourPath = [...ourParams.values()].filter((p) => p.in === 'path');
  const pathOrder = (o: Operation) => [...o.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const ourByRefPathName = new Map<string, Parameter>();
  pathOrder(ref).forEach((name, i) => {
    const ourName = pathOrder(our)[i];
    const p = ourPath.find((x) => x.name === ourName);
    if (name && p) ourByRefPathName.set(name, p);
  });
  for (const p of refParams) {
    const location = `request.${p.in}.${p.name}`;
    const mine = p.in === 'path' ? ourByRefPathName.get(p.name) : ourParams.get(paramId(p));
    if (!mine) {
      add(location, 'missing', `reference clients may send ${p.in} parameter ${p.name}; we do not declare it`);
      continue;
    }
    if (mine.required && !p.required) add(location, 'required', 'we require it; the reference does not');
    for (const d of schemaDifferences({ doc: reference, schema: p.schema }, { doc: ours, schema: mine.schema }, { undeclaredBreaks: true })) {
      // A query string or header cannot carry JSON null: a nullable parameter means "may be absent".
      if (d.kind !== 'nullable') add(location + d.path, d.kind, `we accept less: ${d.detail}`, d.breaking);
    }
  }
  const refIds = new Set(refParams.map(paramId));
  for (const p of ourParams.values()) {
    if (p.in === 'path' || refIds.has(paramId(p))) continue;
    if (p.required) add(`request.${p.in}.${p.name}`, 'required', 'we require a parameter the reference does not declare');
  }
}

function compareRequestBody(reference: Doc, ours: Doc, ref: Operation, our: Operation, add: Add): void {
  const r = jsonSchemaOf(reference, ref.op.requestBody);
  const o = jsonSchemaOf(ours, our.op.requestBody);
  if (o.present && o.required && !(r.present && r.required)) add('request.body', 'required', 'we require a body; the reference does not');
  if (!r.present) return;
  if (!o.present) {
    add('request.body', 'missing', 'the reference takes a body here; we declare none');
    return;
  }
  for (const type of r.types) if (!o.types.includes(type)) add('request.body', 'media-type', `we do not accept ${type}`);
  if (r.schema === undefined) return;
  for (const d of schemaDifferences({ doc: reference, schema: r.schema }, { doc: ours, schema: o.schema }, { undeclaredBreaks: true })) {
    if (d.kind === 'unsupplied') continue; // a field reference clients may leave out and we also know about nothing: no effect
    const detail = d.kind === 'undeclared' ? 'the reference declares this field; we ignore it' : `we accept less: ${d.detail}`;
    add(`request.body${d.path}`, d.kind === 'undeclared' ? 'ignored' : d.kind, detail, d.breaking);
  }
}

function compareResponses(reference: Doc, ours: Doc, ref: Operation, our: Operation, add: Add): void {
  const refResponses = (ref.op.responses ?? {}) as Record<string, Json>;
  const ourResponses = (our.op.responses ?? {}) as Record<string, Json>;
  for (const [status, ourResponse] of Object.entries(ourResponses)) {
    const refResponse = refResponses[status] ?? refResponses[`${status[0]}XX`] ?? refResponses.default;
    if (refResponse === undefined) {
      add(`response.${status}`, 'undocumented-status', `we answer ${status}; the reference documents ${Object.keys(refResponses).join(', ')}`);
      continue;
    }
    const r = jsonSchemaOf(reference, refResponse);
    const o = jsonSchemaOf(ours, ourResponse);
    for (const [name] of Object.entries((deref(reference, refResponse).headers ?? {}) as Record<string, Json>)) {
      const ourHeaders = Object.keys((deref(ours, ourResponse).headers ?? {}) as Record<string, Json>).map((h) => h.toLowerCase());
      if (!ourHeaders.includes(name.toLowerCase())) add(`response.${status}.header.${name}`, 'missing', 'the reference declares this response header; we do not');
    }
    if (r.schema === undefined) continue;
    if (o.schema === undefined) {
      add(`response.${status}.body`, 'missing', 'the reference declares a JSON body; we declare none');
      continue;
    }
    for (const d of schemaDifferences({ doc: ours, schema: o.schema }, { doc: reference, schema: r.schema }, { undeclaredBreaks: false })) {
      const detail =
        d.kind === 'undeclared'
          ? 'ours only (allowed: the reference is open there)'
          : d.kind === 'unsupplied'
            ? 'the reference may send it; we never do (valid, but a client reading it finds nothing)'
            : `we may send what the reference refuses: ${d.detail}`;
      add(`response.${status}.body${d.path}`, d.kind, detail, d.breaking);
    }
  }
}
