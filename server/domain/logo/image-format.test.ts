import { beforeAll, describe, expect, it } from 'vitest';
import { describeContent, ftypBrands, sniffImageFormat, type LogoFormat } from './image-format.ts';
import { HTML_PAGE, makeImage, SVG_LOGO } from './test-support/make-images.ts';

const FORMATS: LogoFormat[] = ['jpeg', 'png', 'webp', 'avif'];
const images = new Map<LogoFormat, Buffer>();

/** An ISO-BMFF ftyp box with the given major and compatible brands. */
function ftyp(major: string, ...compatible: string[]): Buffer {
  const size = 16 + 4 * compatible.length;
  const box = Buffer.alloc(size);
  box.writeUInt32BE(size, 0);
  box.write(`ftyp${major}`, 4, 'latin1');
  compatible.forEach((b, i) => box.write(b, 16 + 4 * i, 'latin1'));
  return box;
}

beforeAll(async () => {
  for (const f of FORMATS) images.set(f, await makeImage(f, 64, 64));
});

describe('sniffImageFormat', () => {
  it.each(FORMATS)('recognises a real %s by its bytes', (format) => {
    expect(sniffImageFormat(images.get(format) ?? Buffer.alloc(0))).toBe(format);
  });

  it('recognises AVIF by major or compatible brand avif/avis', () => {
    expect(sniffImageFormat(ftyp('avis', 'msf1'))).toBe('avif');
    expect(sniffImageFormat(ftyp('mif1', 'miaf', 'avif'))).toBe('avif');
    expect(ftypBrands(ftyp('mif1', 'miaf', 'avif'))).toEqual(['mif1', 'miaf', 'avif']);
  });

  it.each([
    ['SVG', SVG_LOGO],
    ['HTML', HTML_PAGE],
    ['GIF', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1')],
    ['HEIC', ftyp('heic', 'mif1', 'heic')],
    ['MP4', ftyp('isom', 'mp41')],
    ['empty', Buffer.alloc(0)],
    ['truncated PNG signature', Buffer.from([0x89, 0x50, 0x4e])],
    ['RIFF that is not WebP', Buffer.from('RIFF\x00\x00\x00\x00WAVEfmt ', 'latin1')],
  ])('rejects %s', (_name, bytes) => {
    expect(sniffImageFormat(bytes)).toBeNull();
  });

  it('describes rejected content for the partner', () => {
    expect(describeContent(SVG_LOGO)).toBe('an SVG image');
    expect(describeContent(HTML_PAGE)).toBe('HTML or XML');
    expect(describeContent(Buffer.alloc(0))).toBe('empty');
  });
});
