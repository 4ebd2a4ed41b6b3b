import { reportFont, REGULAR_FONT, withoutTables } from './report-fonts';

/** The table directory of an sfnt file: tag → [offset, length]. */
function tables(font: Buffer): Map<string, [number, number]> {
  const count = font.readUInt16BE(4);
  return new Map(Array.from({ length: count }, (_, i) => [font.toString('latin1', 12 + i * 16, 16 + i * 16), [font.readUInt32BE(20 + i * 16), font.readUInt32BE(24 + i * 16)]]));
}

describe('report fonts', () => {
  it('leave out only the layout tables, every other table where it was', () => {
    const prepared = tables(reportFont(REGULAR_FONT));
    for (const tag of ['GSUB', 'GPOS', 'GDEF', 'kern']) expect(prepared.has(tag)).toBe(false);
    for (const tag of ['cmap', 'glyf', 'loca', 'hmtx', 'head', 'hhea', 'maxp', 'name', 'post', 'OS/2']) expect(prepared.has(tag)).toBe(true);
  });

  it('rewrite the directory with the binary-search fields of the new count', () => {
    const font = Buffer.alloc(12 + 3 * 16);
    font.writeUInt16BE(3, 4);
    ['AAAA', 'GSUB', 'BBBB'].forEach((tag, i) => {
      font.write(tag, 12 + i * 16, 'latin1');
      font.writeUInt32BE(100 + i, 20 + i * 16);
    });
    const prepared = withoutTables(font, new Set(['GSUB']));
    expect([...tables(prepared)]).toEqual([
      ['AAAA', [100, 0]],
      ['BBBB', [102, 0]],
    ]);
    expect([prepared.readUInt16BE(6), prepared.readUInt16BE(8), prepared.readUInt16BE(10)]).toEqual([32, 1, 0]);
    expect(font.toString('latin1', 28, 32)).toBe('GSUB'); // the original is left alone
  });
});
