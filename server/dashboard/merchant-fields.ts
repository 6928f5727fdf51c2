import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Request } from 'express';
import { AppError, validationError, type ValidationIssue } from '../errors.ts';
import { loadOpenApiDocs } from '../http/openapi-docs.ts';
import type { DataCollectionConfig } from '../domain/collect-data/schema.ts';
import type { MerchantChanges, MerchantFields } from '../domain/merchants/merchants.ts';
import { field } from './form.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * The merchant form checked by the API's own schema (spec/merchants: name and email lengths, the
 * email pattern, the logo URL's shape), compiled from the newest released document: the
 * dashboard has no copy of those limits, so a spec change changes both at once.
 */
let compiled: ValidateFunction | undefined;
function schemaCheck(): ValidateFunction {
  if (compiled) return compiled;
  // The newest released version's schema (a preview may still change).
  const docs = [...loadOpenApiDocs()];
  const doc = (docs.filter(([version]) => !version.includes('preview')).pop() ?? docs.pop()!)[1];
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(JSON.parse(JSON.stringify(doc).replaceAll('"#/components/', '"doc#/components/')) as object, 'doc');
  compiled = ajv.compile({ $ref: 'doc#/components/schemas/CreateMerchantRequest' });
  return compiled;
}

const FIELD_NAMES: Record<string, string> = { merchantName: 'Name', merchantEmail: 'Email', iconUrl: 'Logo URL' };

/** The schema's complaints as the form's fields. */
function check(body: Record<string, unknown>): void {
  const validate = schemaCheck();
  if (validate(body)) return;
  const issues: ValidationIssue[] = (validate.errors ?? []).map((e) => {
    const key = e.instancePath.split('/')[1] ?? (e.params as { missingProperty?: string }).missingProperty ?? 'body';
    return { field: FIELD_NAMES[key] ?? key, message: e.message ?? 'is not valid' };
  });
  throw validationError(issues);
}

/** The data-collection choice: off, every payment, or from a minimum amount (minor units) in a currency. */
function dataCollectionOf(req: Request): DataCollectionConfig | null {
  const mode = field(req, 'collect');
  if (mode === 'all') return { minAmount: null };
  if (mode !== 'min') return null;
  const currency = field(req, 'collectCurrency').trim().toUpperCase();
  const value = field(req, 'collectMinor').trim();
  if (!/^\d{1,30}$/.test(value)) throw validationError([{ field: 'Data collection minimum', message: 'must be a whole number of minor units (e.g. 5000 for 50.00)' }]);
  return { minAmount: { unit: `iso4217/${currency}`, value } };
}

/** The form as the create use case's fields, after the API's schema accepted them. */
export function merchantFieldsOf(req: Request): MerchantFields {
  const name = field(req, 'name');
  const email = field(req, 'email').trim();
  const iconUrl = field(req, 'iconUrl').trim();
  check({ merchantName: name, merchantEmail: email, ...(iconUrl ? { iconUrl } : {}) });
  return { name, email, iconUrl: iconUrl || null, dataCollection: dataCollectionOf(req) };
}

/** The edit form as changes: every field is sent, an empty logo removes it. */
export function merchantChangesOf(req: Request): MerchantChanges {
  const f = merchantFieldsOf(req);
  return { name: f.name, email: f.email, iconUrl: f.iconUrl ?? null, dataCollection: f.dataCollection ?? null };
}

/** A client mistake (4xx) as the lines a form shows: the message and each field's problem; anything else is rethrown. */
export function formProblems(err: unknown): string[] {
  if (!(err instanceof AppError) || err.status >= 500) throw err;
  return [err.message, ...(err.issues ?? []).map((i) => `${i.field}: ${i.message}`)];
}
