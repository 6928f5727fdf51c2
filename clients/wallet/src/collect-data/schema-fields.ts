/** One property of the collection schema, as a wallet form needs it. */
export interface SchemaField {
  name: string;
  required: boolean;
  type?: string;
  title?: string;
  description?: string;
  format?: string;
}

export interface SchemaFields {
  fields: SchemaField[];
  /** From `anyOf` / `oneOf`: at least one of these groups must be filled in completely. */
  requiredAlternatives: string[][];
}

type JsonObject = Record<string, unknown>;

/**
 * Lists the fields a wallet's own form must offer, from the option's `collectData.schema`
 * (JSON Schema). Only the top-level object is read: that is all the service's schema uses.
 */
export function schemaFields(schema: unknown): SchemaFields {
  const root = asObject(schema);
  const required = new Set(stringList(root.required));
  const properties = asObject(root.properties);
  const fields = Object.entries(properties).map(([name, raw]) => {
    const property = asObject(raw);
    const field: SchemaField = { name, required: required.has(name) };
    for (const key of ['type', 'title', 'description', 'format'] as const) {
      if (typeof property[key] === 'string') field[key] = property[key];
    }
    return field;
  });
  for (const name of required) {
    if (!(name in properties)) fields.push({ name, required: true });
  }
  const groups = [...objectList(root.anyOf), ...objectList(root.oneOf)];
  return { fields, requiredAlternatives: groups.map((group) => stringList(group.required)).filter((g) => g.length > 0) };
}

/** Names of the always-required fields. */
export function requiredFieldNames(schema: unknown): string[] {
  return schemaFields(schema)
    .fields.filter((field) => field.required)
    .map((field) => field.name);
}

export function asObject(value: unknown): JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : {};
}

export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function objectList(value: unknown): JsonObject[] {
  return Array.isArray(value) ? value.map(asObject) : [];
}
