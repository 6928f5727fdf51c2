/** Test-only: real images generated at test time with sharp, plus look-alike non-images. */
import sharp from 'sharp';
import type { LogoFormat } from '../image-format.ts';

/** A solid-colour image of the given format and size, encoded by sharp (libvips). */
export async function makeImage(format: LogoFormat, width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 200, g: 40, b: 60, alpha: 1 } } })
    .toFormat(format)
    .toBuffer();
}

/** A valid 1024×1024 PNG of about 3 MB (stored without compression), i.e. fine except for its size. */
export async function makeThreeMegabytePng(): Promise<Buffer> {
  return sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#336699' } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

export const SVG_LOGO = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024"><rect width="1024" height="1024" fill="red"/></svg>');
export const HTML_PAGE = Buffer.from('<!doctype html><html><head><title>Logo</title></head><body><img src="logo.png"></body></html>');
