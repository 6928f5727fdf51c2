import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { RequestHandler } from 'express';
import { AppError, type ValidationIssue } from '../errors.ts';
import { contextOf } from './context.ts';
import type { OpenApiDoc } from './openapi-docs.ts';

/**
 * Request validation compiled once per operation from one version's generated document. Every
 * limit in spec/ (lengths, patterns, item counts, enums) is enforced here and nowhere else, so
 * editing the spec and regenerating changes what the server accepts. Compiling per operation at
 * start keeps the per-request cost to one schema check (a generic OpenAPI middleware re-matches
 * the path and walks its metadata on every request).
 */
type Schema = Record<string, unknown>;
type Param = { name: string; in: 'path' | 'query' | 'header' | 'cookie'; required?: boolean; schema?: Schema; $ref?: string };
type Operation = { operationId?: string; parameters?: Param[]; requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> } };

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** `#/components/...` → `doc#/components/...`, so schemas resolve against the document added to Ajv. */
function rebase(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rebase);
  if (node && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `doc${v}` : rebase(v);
    return out;
  }
  return node;
}

function newAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, coerceTypes: coerce ? 'array' : false, useDefaults: true, discriminator: false });
  addFormats(ajv);
  return ajv;
}

export interface OperationValidator {
  params: ValidateFunction;
  body?: ValidateFunction;
  bodyRequired: boolean;
  /** The operation acts for the merchant in `Merchant-Id`; without it the reference answers 401 `missing_merchant_id`. */
  requiresMerchantId: boolean;
}

/** `/query/limit` → `query.limit`; `/body/settlements/0/asset` → `settlements[0].asset`. */
function fieldOf(e: ErrorObject): string {
  const extra =
    e.keyword === 'required'
      ? `/${(e.params as { missingProperty: string }).missingProperty}`
      : e.keyword === 'additionalProperties'
        ? `/${(e.params as { additionalProperty: string }).additionalProperty}`
        : '';
  const parts = `${e.instancePath}${extra}`.split('/').filter(Boolean);
  if (parts[0] === 'body') parts.shift();
  else if (parts[0] === 'headers') parts[0] = 'header';
  let out = '';
  for (const p of parts) out += /^\d+$/.test(p) ? `[${p}]` : out ? `.${p}` : p;
  return out || 'body';
}

export function issuesOf(errors: ErrorObject[] | null | undefined, prefix = ''): ValidationIssue[] {
  return (errors ?? []).map((e) => ({
    field: fieldOf({ ...e, instancePath: `${prefix}${e.instancePath}` }),
    message: e.keyword === 'additionalProperties' ? 'is not a known field' : (e.message ?? 'is invalid'),
  }));
}

/** Compiles a validator for every operation of the document, keyed by operationId. */
export function compileValidators(doc: OpenApiDoc): Map<string, OperationValidator> {
  const paramAjv = newAjv(true);
  const bodyAjv = newAjv(false);
  const base = rebase({ components: doc.components ?? {} }) as Schema;
  paramAjv.addSchema(base, 'doc');
  bodyAjv.addSchema(base, 'doc');
  const params = (doc.components?.parameters ?? {}) as Record<string, Param>;
  const out = new Map<string, OperationValidator>();
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item) as Operation[]) {
      if (!op.operationId) continue;
      const groups: Record<'path' | 'query' | 'headers', { properties: Record<string, unknown>; required: string[] }> = {
        path: { properties: {}, required: [] },
        query: { properties: {}, required: [] },
        headers: { properties: {}, required: [] },
      };
      for (const raw of op.parameters ?? []) {
        const p = raw.$ref ? params[raw.$ref.split('/').pop()!]! : raw;
        if (p.in === 'cookie') continue;
        const group = groups[p.in === 'header' ? 'headers' : p.in];
        const name = p.in === 'header' ? p.name.toLowerCase() : p.name;
        group.properties[name] = rebase(p.schema ?? {});
        if (p.required) group.required.push(name);
      }
      const paramSchema = {
        type: 'object',
        properties: {
          path: { type: 'object', ...groups.path },
          // Unknown query parameters are refused: a typo in a filter must not silently list everything.
          query: { type: 'object', additionalProperties: false, ...groups.query },
          headers: { type: 'object', ...groups.headers },
        },
      };
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      out.set(op.operationId, {
        params: paramAjv.compile(paramSchema),
        ...(bodySchema ? { body: bodyAjv.compile(rebase(bodySchema) as Schema) } : {}),
        bodyRequired: op.requestBody?.required === true,
        requiresMerchantId: groups.headers.required.includes('merchant-id'),
      });
    }
  }
  return out;
}

const isJson = (type: string | undefined) => !!type && /^application\/([\w.+-]+\+)?json\b/i.test(type);

/** Validates the request of the matched operation against the version in force. */
export function validateRequests(validatorsByVersion: Map<string, Map<string, OperationValidator>>): RequestHandler {
  return (req, res, next) => {
    const ctx = contextOf(res);
    const v = validatorsByVersion.get(ctx.apiVersion ?? '')?.get(ctx.operation?.operationId ?? '');
    if (!v) return next();
    if (v.requiresMerchantId && !req.get('Merchant-Id')) return next(new AppError('missing_merchant_id', 'Send the merchant this request is for in the Merchant-Id header'));
    const input = { path: ctx.pathParams ?? {}, query: { ...(req.query as Record<string, unknown>) }, headers: { ...req.headers } };
    const issues: ValidationIssue[] = v.params(input) ? [] : issuesOf(v.params.errors);
    if (v.body) {
      const sent = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
      if (sent && !isJson(req.get('Content-Type'))) return next(new AppError('unsupported_media_type', 'Send the body as application/json'));
      const hasBody = req.body !== undefined;
      if (!hasBody) {
        if (v.bodyRequired) issues.push({ field: 'body', message: 'is required (a JSON object)' });
      } else if (!v.body(req.body)) issues.push(...issuesOf(v.body.errors));
    }
    if (issues.length) return next(new AppError('params_validation', 'Validation failed', { issues }));
    // Coerced values (limit as a number, single status as a list) replace the raw strings.
    ctx.query = input.query;
    ctx.pathParams = input.path;
    next();
  };
}
