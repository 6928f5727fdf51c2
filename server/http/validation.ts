import * as OpenApiValidator from 'express-openapi-validator';
import type { RequestHandler } from 'express';
import type { OpenApiDoc } from './openapi-docs.ts';

/**
 * Response validation for tests: a handler answering a shape its version's spec does not
 * declare fails loudly. (Requests are validated by request-validator.ts, compiled per operation.)
 */
export function responseValidator(doc: OpenApiDoc): RequestHandler[] {
  return OpenApiValidator.middleware({
    apiSpec: structuredClone(doc) as never,
    validateRequests: false,
    validateResponses: { removeAdditional: false },
    validateSecurity: false,
    validateFormats: true,
    ignoreUndocumented: true,
    fileUploader: false,
    $refParser: { mode: 'dereference' },
  });
}
