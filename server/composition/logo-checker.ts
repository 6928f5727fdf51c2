import { createGuardedFetch } from '../../adapters/http-fetch/index.ts';
import { createLogoIssueChecker } from '../domain/logo/index.ts';

/**
 * The production logo check: fetched over HTTPS through the SSRF guard (public addresses only,
 * redirects re-checked), then format, size and shape checked per the interface's logo table.
 */
export function createLogoChecker(): (url: string) => Promise<string[]> {
  return createLogoIssueChecker(createGuardedFetch());
}
