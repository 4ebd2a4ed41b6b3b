import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The DejaVu fonts the PDF embeds, prepared for fast layout. DejaVu carries large OpenType layout tables (GSUB,
 * GPOS, kern) for scripts a report never shows; fontkit ran them on every word, and on a report of thousands of
 * URLs and hashes that was most of the rendering time. Without them each glyph is a cmap lookup and an advance
 * width: Latin text in NFC form (accents precomposed: ã ç é) reads the same, only without kerning. The glyph
 * outlines are untouched and still embedded (subset) in every PDF.
 */
const FONT_DIRECTORY = join(require.resolve('dejavu-fonts-ttf/package.json'), '..', 'ttf');
const LAYOUT_TABLES = new Set(['GSUB', 'GPOS', 'GDEF', 'kern', 'morx', 'mort', 'kerx']);

export const REGULAR_FONT = 'DejaVuSans';
export const BOLD_FONT = 'DejaVuSans-Bold';

const prepared = new Map<string, Buffer>();

/** The font file's bytes without its layout tables, read once per process. */
export function reportFont(name: typeof REGULAR_FONT | typeof BOLD_FONT): Buffer {
  let font = prepared.get(name);
  if (!font) {
    font = withoutTables(readFileSync(join(FONT_DIRECTORY, `${name}.ttf`)), LAYOUT_TABLES);
    prepared.set(name, font);
  }
  return font;
}

/**
 * An sfnt file with some tables left out of its table directory. The tables' bytes stay where they are (their
 * offsets are absolute), only the directory is rewritten: fewer records, the binary-search fields recomputed.
 */
export function withoutTables(font: Buffer, drop: ReadonlySet<string>): Buffer {
  const copy = Buffer.from(font);
  const count = font.readUInt16BE(4);
  const records: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const record = font.subarray(12 + i * 16, 28 + i * 16);
    if (!drop.has(record.toString('latin1', 0, 4))) records.push(record);
  }
  const power = 2 ** Math.floor(Math.log2(records.length));
  copy.writeUInt16BE(records.length, 4);
  copy.writeUInt16BE(power * 16, 6);
  copy.writeUInt16BE(Math.log2(power), 8);
  copy.writeUInt16BE(records.length * 16 - power * 16, 10);
  copy.fill(0, 12, 12 + count * 16);
  records.forEach((record, i) => record.copy(copy, 12 + i * 16));
  return copy;
}
