// The emitter's OpenAPI made right for every reader: used by `npm run generate` and by the test
// that compiles an edited spec, so both serve the documents the service publishes.
import { parse, stringify } from 'yaml';

type Schema = Record<string, unknown>;

/**
 * The emitter's document made right for every reader, not only ours. OpenAPI 3.0 writes a
 * nullable reference as `{ allOf: [$ref], nullable: true }`, but `nullable` widens only a schema's
 * own `type`, so strict validators (Redocly's example check, Ajv) and some client generators
 * reject null there. A reference to a scalar (a timestamp, a bounded integer) is inlined with its
 * constraints and `nullable: true`; a reference to an object or enum becomes `anyOf` of it and
 * null. The meaning is unchanged; the compatibility check and the generated types agree.
 */
export function publishable(yamlText: string): string {
  const doc = parse(yamlText) as { components?: { schemas?: Record<string, Schema> } };
  const schemas = doc.components?.schemas ?? {};
  const scalar = (s: Schema | undefined): s is Schema => !!s && typeof s.type === 'string' && s.type !== 'object' && s.type !== 'array' && !('enum' in s) && !('allOf' in s);
  const fix = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(fix);
    if (!node || typeof node !== 'object') return node;
    const out: Schema = {};
    for (const [k, v] of Object.entries(node)) out[k] = fix(v);
    const ref = Array.isArray(out.allOf) && out.allOf.length === 1 ? (out.allOf[0] as Schema).$ref : undefined;
    if (out.nullable !== true || typeof ref !== 'string') return out;
    const { allOf: _allOf, nullable: _nullable, type: _type, ...own } = out;
    const target = schemas[ref.split('/').pop()!];
    if (scalar(target)) {
      const { description: _d, title: _t, ...constraints } = target;
      return { ...constraints, ...own, nullable: true };
    }
    return { ...own, anyOf: [{ $ref: ref }, { type: 'object', nullable: true, enum: [null] }] };
  };
  const before = referencedSchemas(doc);
  const fixed = fix(doc) as typeof doc;
  const after = referencedSchemas(fixed);
  // A scalar that was only ever used nullable is now inlined everywhere: drop its orphaned entry.
  for (const name of before) if (!after.has(name)) delete fixed.components!.schemas![name];
  return stringify(fixed, { lineWidth: 0 });
}

function referencedSchemas(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const v of node) referencedSchemas(v, into);
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) into.add(v.slice('#/components/schemas/'.length));
      else referencedSchemas(v, into);
    }
  return into;
}
