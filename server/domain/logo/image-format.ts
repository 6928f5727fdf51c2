/**
 * Recognises the accepted logo formats by their magic bytes only. File names and Content-Type are
 * never consulted: an SVG or HTML page served as image/png is not a PNG.
 */
export type LogoFormat = 'jpeg' | 'png' | 'webp' | 'avif';

export const MEDIA_TYPES: Readonly<Record<LogoFormat, string>> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
};

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const AVIF_BRANDS = new Set(['avif', 'avis']);

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return end <= bytes.length ? String.fromCharCode(...bytes.subarray(start, end)) : '';
}

function startsWith(bytes: Uint8Array, signature: number[]): boolean {
  return bytes.length >= signature.length && signature.every((b, i) => bytes[i] === b);
}

/** Brands of a leading ISO-BMFF `ftyp` box: the major brand, then the compatible ones. */
export function ftypBrands(bytes: Uint8Array): string[] {
  if (ascii(bytes, 4, 8) !== 'ftyp') return [];
  const declared = (((bytes[0] ?? 0) << 24) | ((bytes[1] ?? 0) << 16) | ((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0)) >>> 0;
  const boxEnd = Math.min(declared, bytes.length);
  const brands = [ascii(bytes, 8, 12)];
  for (let at = 16; at + 4 <= boxEnd; at += 4) brands.push(ascii(bytes, at, at + 4));
  return brands.filter((b) => b !== '');
}

/** The format the content really is, or null when it is none of JPEG, PNG, WebP, AVIF. */
export function sniffImageFormat(bytes: Uint8Array): LogoFormat | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, PNG_SIGNATURE)) return 'png';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'webp';
  if (ftypBrands(bytes).some((b) => AVIF_BRANDS.has(b))) return 'avif';
  return null;
}

/** A short partner-facing description of rejected content, to make the issue actionable. */
export function describeContent(bytes: Uint8Array): string {
  const head = new TextDecoder()
    .decode(bytes.subarray(0, 512))
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  if (head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg'))) return 'an SVG image';
  if (head.startsWith('<')) return 'HTML or XML';
  if (ascii(bytes, 0, 4) === 'GIF8') return 'a GIF image';
  if (ftypBrands(bytes).length > 0) return `an ISO media file of brand ${ftypBrands(bytes)[0] ?? '?'}`;
  return bytes.length === 0 ? 'empty' : 'not a recognised image';
}
