/**
 * One reading of a JSON schema for comparison, whichever OpenAPI dialect wrote it.
 *
 * Our documents are OpenAPI 3.0 (`nullable: true`, TypeSpec's `allOf` wrappers around `$ref`),
 * the reference's are 3.1 (`type: [x, "null"]`, `oneOf: [{type: null}, {$ref}]`). The same
 * contract is spelled differently on each side, so a textual diff reports noise; comparing this
 * normal form reports only what a client would notice.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Schema = { [key: string]: Json };

export interface Doc {
  /** The whole OpenAPI document, for `$ref` lookups. */
  root: Schema;
}

export interface NormalSchema {
  /** Allowed JSON types (without "null"); null means "any type". */
  types: Set<string> | null;
  nullable: boolean;
  enum?: Json[];
  properties: Record<string, Schema>;
  required: Set<string>;
  /** false = no other properties; a schema = what other values must be; undefined = anything. */
  additionalProperties?: false | Schema;
  items?: Schema;
  /** Two or more non-null alternatives (oneOf/anyOf). */
  variants?: Schema[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Follows `#/…` references (only local ones occur in both documents). */
export function deref(doc: Doc, schema: Json | undefined, seen: Set<string> = new Set()): Schema {
  if (!isObject(schema)) return {};
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  if (seen.has(ref)) return {}; // a recursive schema: compare no deeper
  const target = resolvePointer(doc.root, ref);
  const { $ref: _ref, ...siblings } = schema;
  const resolved = deref(doc, target, new Set([...seen, ref]));
  // 3.1 allows keywords beside $ref; annotations only in practice, but keep constraints if any.
  return Object.keys(siblings).length ? { ...resolved, ...siblings } : resolved;
}

export function resolvePointer(root: Schema, ref: string): Json | undefined {
  if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported, got ${ref}`);
  let node: Json | undefined = root;
  for (const raw of ref.slice(2).split('/')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = isObject(node) ? node[part] : undefined;
  }
  return node;
}

const isNullOnly = (s: Schema): boolean =>
  s.type === 'null' || (Array.isArray(s.type) && s.type.length === 1 && s.type[0] === 'null') || (Array.isArray(s.enum) && s.enum.length === 1 && s.enum[0] === null);

/** The normal form of `schema`: references followed, allOf merged, null alternatives folded into `nullable`. */
export function normalize(doc: Doc, input: Json | undefined): NormalSchema {
  const s = deref(doc, input);
  const out: NormalSchema = { types: null, nullable: false, properties: {}, required: new Set() };
  mergeInto(doc, out, s);
  return out;
}

function mergeInto(doc: Doc, out: NormalSchema, raw: Schema): void {
  const s = deref(doc, raw);
  if (Array.isArray(s.allOf)) for (const part of s.allOf) mergeInto(doc, out, deref(doc, part));
  const alternatives = (Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : null)?.map((a) => deref(doc, a));
  if (alternatives) {
    const nonNull = alternatives.filter((a) => !isNullOnly(a));
    if (nonNull.length < alternatives.length) out.nullable = true;
    if (nonNull.length === 1) mergeInto(doc, out, nonNull[0]!);
    else if (nonNull.length > 1) out.variants = nonNull;
  }
  if (s.nullable === true) out.nullable = true;
  const declared = typeof s.type === 'string' ? [s.type] : Array.isArray(s.type) ? s.type.filter((t): t is string => typeof t === 'string') : null;
  if (declared) {
    if (declared.includes('null')) out.nullable = true;
    const types = new Set(declared.filter((t) => t !== 'null'));
    if (types.size) out.types = out.types ? new Set([...out.types].filter((t) => types.has(t) || (t === 'integer' && types.has('number')))) : types;
  }
  const values = Array.isArray(s.enum) ? s.enum : 'const' in s ? [s.const] : null;
  if (values) {
    if (values.includes(null)) out.nullable = true;
    const nonNull: Json[] = values.filter((v) => v !== null);
    out.enum = out.enum ? out.enum.filter((v) => nonNull.includes(v)) : nonNull;
  }
  if (isObject(s.properties)) {
    for (const [name, prop] of Object.entries(s.properties)) out.properties[name] = isObject(prop) ? prop : {};
    out.types ??= new Set(['object']);
  }
  if (Array.isArray(s.required)) for (const r of s.required) if (typeof r === 'string') out.required.add(r);
  if (s.additionalProperties === false || s.unevaluatedProperties === false) out.additionalProperties = false;
  else if (isObject(s.additionalProperties) && Object.keys(s.additionalProperties).length) out.additionalProperties = s.additionalProperties;
  if (isObject(s.items)) {
    out.items = s.items;
    out.types ??= new Set(['array']);
  }
  for (const k of ['minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems'] as const) if (typeof s[k] === 'number') out[k] = s[k];
  // A bound at JavaScript's safe-integer edge says "any JSON number", as no bound does.
  if (out.maximum !== undefined && out.maximum >= Number.MAX_SAFE_INTEGER) delete out.maximum;
  if (out.minimum !== undefined && out.minimum <= Number.MIN_SAFE_INTEGER) delete out.minimum;
  if (typeof s.exclusiveMinimum === 'number') out.minimum = s.exclusiveMinimum;
  if (typeof s.exclusiveMaximum === 'number') out.maximum = s.exclusiveMaximum;
  if (typeof s.pattern === 'string') out.pattern = s.pattern;
  if (typeof s.format === 'string') out.format = s.format;
}

/** True when the schema constrains nothing at all (`{}` after normalizing). */
export function isUnconstrained(n: NormalSchema): boolean {
  return (
    n.types === null &&
    !n.enum &&
    !n.variants &&
    !Object.keys(n.properties).length &&
    !n.required.size &&
    n.additionalProperties === undefined &&
    !n.items &&
    n.minLength === undefined &&
    n.maxLength === undefined &&
    n.pattern === undefined &&
    n.minimum === undefined &&
    n.maximum === undefined &&
    n.minItems === undefined &&
    n.maxItems === undefined
  );
}
