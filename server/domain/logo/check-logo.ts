/**
 * Checks a merchant's `iconUrl` against the interface's "Merchant logo specification": fetched now
 * over HTTPS through the (SSRF-guarded) HttpFetchPort, ≤ 2 MB, JPEG/PNG/WebP/AVIF by magic bytes,
 * 500–4096 px per side, square within ±5 %. Each failure is one partner-readable issue; the merchant
 * handlers turn each into `{ field: 'iconUrl', message }` of a 400 `params_validation`.
 */
import { imageSize } from 'image-size';
import type { HttpFetchPort } from '../../ports/http-fetch.ts';
import { isHttpFetchError } from '../../ports/http-fetch.ts';
import { describeContent, MEDIA_TYPES, sniffImageFormat, type LogoFormat } from './image-format.ts';
import { DEFAULT_LOGO_LIMITS, type LogoLimits } from './logo-limits.ts';
import { isSquareEnough, squareDeviation } from './square.ts';

export type LogoAccepted = {
  ok: true;
  format: LogoFormat;
  /** `image/jpeg` etc., from the detected format (never from the server's Content-Type). */
  mediaType: string;
  width: number;
  height: number;
  /** The image as fetched: keep it if buyers must keep seeing this logo (spec rule 2). */
  bytes: Uint8Array;
};
export type LogoRejected = { ok: false; issues: string[] };
export type LogoCheckResult = LogoAccepted | LogoRejected;

/** What image-size calls each accepted format. */
const IMAGE_SIZE_TYPES: Readonly<Record<LogoFormat, string>> = { jpeg: 'jpg', png: 'png', webp: 'webp', avif: 'avif' };
const FORMAT_NAMES: Readonly<Record<LogoFormat, string>> = { jpeg: 'JPEG', png: 'PNG', webp: 'WebP', avif: 'AVIF' };

const reject = (...issues: string[]): LogoRejected => ({ ok: false, issues });
const mb = (bytes: number): string => `${Number((bytes / (1024 * 1024)).toFixed(2))} MB`;

/**
 * image-size picks its HEIF flavour from the MAJOR brand only and knows `avif` but not `avis`
 * (or `mif1` files that list avif as compatible). We already know the file is AVIF from its brands,
 * so a copy with major brand `avif` lets it read the `ispe` dimensions of any AVIF.
 */
function forImageSize(bytes: Uint8Array, format: LogoFormat): Uint8Array {
  if (format !== 'avif') return bytes;
  const copy = bytes.slice();
  copy.set([0x61, 0x76, 0x69, 0x66], 8); // "avif"
  return copy;
}

function readDimensions(bytes: Uint8Array, format: LogoFormat): { width: number; height: number } | null {
  try {
    const size = imageSize(forImageSize(bytes, format));
    if (size.type !== IMAGE_SIZE_TYPES[format] || !(size.width > 0) || !(size.height > 0)) return null;
    return { width: size.width, height: size.height };
  } catch {
    return null;
  }
}

/** Size and shape issues, one per failed rule. */
function dimensionIssues(width: number, height: number, limits: LogoLimits): string[] {
  const issues: string[] = [];
  const size = `${width}×${height} px`;
  if (width < limits.minSide || height < limits.minSide) {
    issues.push(`the logo is ${size}; width and height must each be at least ${limits.minSide} px (1024×1024 px recommended)`);
  }
  if (width > limits.maxSide || height > limits.maxSide) {
    issues.push(`the logo is ${size}; width and height must each be at most ${limits.maxSide} px`);
  }
  if (!isSquareEnough(width, height, limits.squareTolerancePercent)) {
    const off = (squareDeviation(width, height) * 100).toFixed(1);
    issues.push(`the logo is ${size} and must be square: its sides may differ by at most ${limits.squareTolerancePercent} % of the longer side (they differ by ${off} %)`);
  }
  return issues;
}

async function download(url: string, fetchPort: HttpFetchPort, limits: LogoLimits): Promise<Uint8Array | LogoRejected> {
  try {
    const res = await fetchPort.fetch(url, {
      method: 'GET',
      headers: { accept: 'image/avif,image/webp,image/png,image/jpeg' },
      maxBytes: limits.maxBytes,
      timeoutMs: limits.timeoutMs,
      connectTimeoutMs: limits.connectTimeoutMs,
      maxRedirects: limits.maxRedirects,
      httpsOnly: true,
    });
    if (res.status !== 200) return reject(`iconUrl is not reachable: the server answered HTTP ${res.status}`);
    return res.body;
  } catch (err) {
    if (!isHttpFetchError(err)) throw err; // a bug, not the partner's URL: let it surface as a 500
    if (err.code === 'too_large') return reject(`the logo file is larger than ${mb(limits.maxBytes)} (${limits.maxBytes} bytes)`);
    if (err.code === 'not_https') return reject('iconUrl is not reachable over HTTPS: it redirects to a URL that is not https://');
    return reject(`iconUrl is not reachable: ${err.message}`);
  }
}

/**
 * Checks the logo at `url`. Resolves `{ ok: false, issues }` for anything wrong with the partner's
 * URL or image (never throws for those); throws only on programming errors in the fetch adapter.
 * Pass the guarded fetch (`createGuardedFetch()` in production); `limits` overrides defaults.
 */
export async function checkLogo(url: string, fetchPort: HttpFetchPort, limits: Partial<LogoLimits> = {}): Promise<LogoCheckResult> {
  const lim: LogoLimits = { ...DEFAULT_LOGO_LIMITS, ...limits };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return reject('iconUrl must be an absolute https:// URL');
  }
  if (parsed.protocol !== 'https:') return reject(`iconUrl must be an https:// URL (got ${parsed.protocol}//)`);

  const body = await download(parsed.href, fetchPort, lim);
  if (!(body instanceof Uint8Array)) return body;
  if (body.length > lim.maxBytes) return reject(`the logo file is larger than ${mb(lim.maxBytes)} (${lim.maxBytes} bytes)`);

  const format = sniffImageFormat(body);
  if (!format) {
    return reject(`the logo must be a JPEG, PNG, WebP or AVIF image (judged by its content, not its file name or Content-Type); this file is ${describeContent(body)}`);
  }
  const dims = readDimensions(body, format);
  if (!dims) return reject(`the logo could not be read as a ${FORMAT_NAMES[format]} image (the file looks damaged or truncated)`);

  const issues = dimensionIssues(dims.width, dims.height, lim);
  if (issues.length > 0) return reject(...issues);
  return { ok: true, format, mediaType: MEDIA_TYPES[format], width: dims.width, height: dims.height, bytes: body };
}

/**
 * The shape the merchant handlers depend on (`checkLogo?: (url) => Promise<string[]>`): one
 * message per problem, none when acceptable. Production: `createLogoIssueChecker(createGuardedFetch())`.
 */
export function createLogoIssueChecker(fetchPort: HttpFetchPort, limits: Partial<LogoLimits> = {}): (url: string) => Promise<string[]> {
  return async (url) => {
    const result = await checkLogo(url, fetchPort, limits);
    return result.ok ? [] : result.issues;
  };
}
