import { isUnconstrained, normalize, type Doc, type Json, type NormalSchema } from './schema-model.ts';

/**
 * Where `sub` may produce a value that `sup` refuses: the direction-aware half of a schema
 * comparison. Responses: sub = ours, sup = the reference's (what we send must be valid for a
 * reference client). Requests: sub = the reference's, sup = ours (what a reference client sends
 * must be accepted by us). The checks are structural and conservative (a pattern that differs is
 * reported, not proven); anything we cannot prove compatible is reported, for a person to judge.
 */
export interface SchemaDifference {
  /** JSON path below the compared schema: `.a.b`, `[]` for array items, `{}` for map values. */
  path: string;
  kind: SchemaKind;
  detail: string;
  /** Breaking unless it is only informative (a field the other side does not declare but allows). */
  breaking: boolean;
}

export type SchemaKind =
  | 'required' // sup requires a property that sub may leave out
  | 'forbidden' // sub has a property that sup forbids (additionalProperties: false)
  | 'undeclared' // sub has a property sup does not declare (and allows): informative for responses
  | 'unsupplied' // sup declares an optional property sub never has: valid, but a client looking for it finds nothing
  | 'nullable' // sub allows null, sup does not
  | 'type' // sub allows a type sup refuses
  | 'enum' // sub allows values outside sup's enumeration
  | 'pattern'
  | 'format'
  | 'length'
  | 'range'
  | 'items-count';

export interface Side {
  doc: Doc;
  schema: Json | undefined;
}

const MAX_DEPTH = 24;

export function schemaDifferences(sub: Side, sup: Side, opts: { undeclaredBreaks: boolean }): SchemaDifference[] {
  const out: SchemaDifference[] = [];
  walk(sub, sup, '', 0, out, opts);
  const seen = new Set<string>();
  return out.filter((d) => {
    const k = `${d.path} ${d.kind}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function walk(subSide: Side, supSide: Side, path: string, depth: number, out: SchemaDifference[], opts: { undeclaredBreaks: boolean }): void {
  if (depth > MAX_DEPTH) return;
  const sub = normalize(subSide.doc, subSide.schema);
  const sup = normalize(supSide.doc, supSide.schema);
  if (isUnconstrained(sup)) return; // `{}` accepts every value, null included
  if (sup.variants) {
    const subVariants = sub.variants ?? [subSide.schema ?? {}];
    for (const variant of subVariants) {
      // The reference alternative this one fits best; report only what even that one refuses.
      let best: SchemaDifference[] | null = null;
      for (const candidate of sup.variants) {
        const diffs: SchemaDifference[] = [];
        walk({ doc: subSide.doc, schema: variant }, { doc: supSide.doc, schema: candidate }, path, depth + 1, diffs, opts);
        if (!best || diffs.filter((d) => d.breaking).length < best.filter((d) => d.breaking).length) best = diffs;
      }
      out.push(...(best ?? []));
    }
    if (sub.nullable && !sup.nullable) out.push({ path, kind: 'nullable', detail: 'may be null', breaking: true });
    return;
  }
  if (sub.variants) {
    for (const variant of sub.variants) walk({ doc: subSide.doc, schema: variant }, supSide, path, depth + 1, out, opts);
    if (sub.nullable && !sup.nullable) out.push({ path, kind: 'nullable', detail: 'may be null', breaking: true });
    return;
  }
  compareScalars(sub, sup, path, out);
  compareObjects(subSide, supSide, sub, sup, path, depth, out, opts);
  if (sub.items || sup.items) {
    if (sup.items) walk({ doc: subSide.doc, schema: sub.items ?? {} }, { doc: supSide.doc, schema: sup.items }, `${path}[]`, depth + 1, out, opts);
    if ((sup.minItems ?? 0) > (sub.minItems ?? 0))
      out.push({ path, kind: 'items-count', detail: `at least ${sup.minItems} items required (other side: ${sub.minItems ?? 0})`, breaking: true });
    if (sup.maxItems !== undefined && (sub.maxItems === undefined || sub.maxItems > sup.maxItems))
      out.push({ path, kind: 'items-count', detail: `at most ${sup.maxItems} items (other side: ${sub.maxItems ?? 'unbounded'})`, breaking: true });
  }
}

function compareScalars(sub: NormalSchema, sup: NormalSchema, path: string, out: SchemaDifference[]): void {
  if (sub.nullable && !sup.nullable) out.push({ path, kind: 'nullable', detail: 'may be null', breaking: true });
  if (sup.types) {
    const subTypes = sub.types ?? (sub.enum ? new Set(sub.enum.map(jsonType)) : null);
    const extra = subTypes ? [...subTypes].filter((t) => !sup.types!.has(t) && !(t === 'integer' && sup.types!.has('number'))) : ['any'];
    if (extra.length) out.push({ path, kind: 'type', detail: `${[...(subTypes ?? ['any'])].join('|')} where ${[...sup.types].join('|')} is expected`, breaking: true });
  }
  if (sup.enum) {
    if (!sub.enum) out.push({ path, kind: 'enum', detail: `any value where one of ${fmt(sup.enum)} is expected`, breaking: true });
    else {
      const extra = sub.enum.filter((v) => !sup.enum!.includes(v));
      if (extra.length) out.push({ path, kind: 'enum', detail: `${fmt(extra)} not among ${fmt(sup.enum)}`, breaking: true });
    }
  }
  if (sub.enum) return; // enumerated values: their own check above is exact
  if (sup.pattern !== undefined && sup.pattern !== sub.pattern)
    out.push({ path, kind: 'pattern', detail: `pattern ${sup.pattern} (other side: ${sub.pattern ?? 'none'})`, breaking: true });
  if (sup.format !== undefined && sup.format !== sub.format && !compatibleFormat(sub.format, sup.format))
    out.push({ path, kind: 'format', detail: `format ${sup.format} (other side: ${sub.format ?? 'none'})`, breaking: true });
  if (sup.maxLength !== undefined && (sub.maxLength === undefined || sub.maxLength > sup.maxLength))
    out.push({ path, kind: 'length', detail: `at most ${sup.maxLength} characters (other side: ${sub.maxLength ?? 'unbounded'})`, breaking: true });
  if ((sup.minLength ?? 0) > (sub.minLength ?? 0))
    out.push({ path, kind: 'length', detail: `at least ${sup.minLength} characters (other side: ${sub.minLength ?? 0})`, breaking: true });
  if (sup.maximum !== undefined && (sub.maximum === undefined || sub.maximum > sup.maximum))
    out.push({ path, kind: 'range', detail: `at most ${sup.maximum} (other side: ${sub.maximum ?? 'unbounded'})`, breaking: true });
  if (sup.minimum !== undefined && (sub.minimum === undefined || sub.minimum < sup.minimum))
    out.push({ path, kind: 'range', detail: `at least ${sup.minimum} (other side: ${sub.minimum ?? 'unbounded'})`, breaking: true });
}

function compareObjects(
  subSide: Side,
  supSide: Side,
  sub: NormalSchema,
  sup: NormalSchema,
  path: string,
  depth: number,
  out: SchemaDifference[],
  opts: { undeclaredBreaks: boolean },
): void {
  for (const name of sup.required) {
    if (!sub.required.has(name))
      out.push({
        path: `${path}.${name}`,
        kind: 'required',
        detail: name in sub.properties ? 'required, may be left out by the other side' : 'required, not declared by the other side',
        breaking: true,
      });
  }
  for (const [name, prop] of Object.entries(sub.properties)) {
    if (name in sup.properties) walk({ doc: subSide.doc, schema: prop }, { doc: supSide.doc, schema: sup.properties[name] }, `${path}.${name}`, depth + 1, out, opts);
    else if (sup.additionalProperties === false) out.push({ path: `${path}.${name}`, kind: 'forbidden', detail: 'not allowed by the other side', breaking: true });
    else if (sup.additionalProperties) walk({ doc: subSide.doc, schema: prop }, { doc: supSide.doc, schema: sup.additionalProperties }, `${path}.${name}`, depth + 1, out, opts);
    else out.push({ path: `${path}.${name}`, kind: 'undeclared', detail: 'not declared by the other side', breaking: opts.undeclaredBreaks });
  }
  if (Object.keys(sub.properties).length || sub.required.size) {
    for (const name of Object.keys(sup.properties)) {
      if (!(name in sub.properties) && !sup.required.has(name))
        out.push({ path: `${path}.${name}`, kind: 'unsupplied', detail: 'optional on the other side, never present here', breaking: false });
    }
  }
  if (sub.additionalProperties && sup.additionalProperties)
    walk({ doc: subSide.doc, schema: sub.additionalProperties }, { doc: supSide.doc, schema: sup.additionalProperties }, `${path}{}`, depth + 1, out, opts);
}

/** A narrower format is compatible with a wider one (every int32 is an int64, …). */
function compatibleFormat(sub: string | undefined, sup: string): boolean {
  const wider: Record<string, string[]> = { int64: ['int32'], double: ['float', 'int32', 'int64'], uri: ['url'] };
  return sub !== undefined && (wider[sup] ?? []).includes(sub);
}

const jsonType = (v: Json): string => (Array.isArray(v) ? 'array' : v === null ? 'null' : Number.isInteger(v) ? 'integer' : typeof v);
const fmt = (values: Json[]): string =>
  values.length > 8
    ? `${values
        .slice(0, 8)
        .map((v) => JSON.stringify(v))
        .join(', ')}, … (${values.length})`
    : values.map((v) => JSON.stringify(v)).join(', ');
