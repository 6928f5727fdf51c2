import * as OpenApiValidator from 'express-openapi-validator';
import type { RequestHandler } from 'express';
import type { OpenApiDoc } from './openapi-docs.ts';

/**
 * Request (and, in tests, response) validation against one version's generated document. The
 * limits in spec/ — lengths, patterns, item counts — are enforced here and nowhere else, so
 * editing the spec and regenerating changes what the server accepts.
 */
export function openApiValidator(doc: OpenApiDoc, opts: { validateResponses: boolean }): RequestHandler[] {
  return OpenApiValidator.middleware({
    apiSpec: structuredClone(doc) as never,
    validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false, allErrors: true },
    validateResponses: opts.validateResponses ? { removeAdditional: false } : false,
    validateSecurity: false,
    validateFormats: true,
    ignoreUndocumented: true,
  }) as unknown as RequestHandler[];
}
