import type { RequestHandler } from 'express';
import { AppError } from '../errors.ts';
import { contextOf } from './context.ts';
import { API_VERSIONS, type ApiVersion } from '../domain/vocabulary.ts';

/** Known versions, oldest first: the spec's, as the generator lists them. */
export { API_VERSIONS, type ApiVersion };
export const DEFAULT_API_VERSION: ApiVersion = '2026-02-18';

const FORMAT = /^\d{4}-\d{2}-\d{2}(\.preview)?$/;

export function isApiVersion(v: string): v is ApiVersion {
  return (API_VERSIONS as readonly string[]).includes(v);
}

/**
 * The version a request runs under: the `Svc-Version` header (or `WCP-Version`, which wallet
 * SDKs send), else the partner's pinned default. A request may move forward from its pin, never
 * back: an older version would silently drop behaviour the partner already relies on.
 */
export function resolveVersion(): RequestHandler {
  return (req, res, next) => {
    const ctx = contextOf(res);
    try {
      const pinned = ctx.partner?.defaultVersion ?? DEFAULT_API_VERSION;
      const raw = req.get('Svc-Version') ?? req.get('WCP-Version');
      let version = pinned;
      if (raw !== undefined) {
        if (!FORMAT.test(raw)) throw new AppError('invalid_api_version', 'Svc-Version must look like YYYY-MM-DD or YYYY-MM-DD.preview', { details: { received: raw } });
        if (!isApiVersion(raw)) throw new AppError('unknown_api_version', `Unknown API version ${raw}`, { details: { known: [...API_VERSIONS] } });
        if (API_VERSIONS.indexOf(raw) < API_VERSIONS.indexOf(pinned as ApiVersion)) {
          throw new AppError('api_version_downgrade', `This account is pinned to ${pinned}; a request may only use that or a newer version`, {
            details: { pinned, requested: raw },
          });
        }
        version = raw;
      }
      ctx.apiVersion = version;
      // Both names, so a client reads the version it got under the name it sent.
      res.setHeader('Svc-Version', version);
      res.setHeader('WCP-Version', version);
      next();
    } catch (err) {
      next(err);
    }
  };
}
