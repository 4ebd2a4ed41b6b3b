/**
 * Line breaking for table cells, done here rather than by PDFKit: PDFKit measures every word through the font's
 * full OpenType layout, and a word wider than its column (a hash, a URL) is cut by trying ever shorter slices,
 * each laid out again; on a report of thousands of rows that was most of the time. Here a character's advance
 * is measured once per font and cached, a line is the sum of its characters (kerning only ever tightens DejaVu's
 * lines, and a small margin covers it), and lines break after a space, else after URL punctuation, else anywhere.
 */
export type MeasureCharacter = (character: string) => number;

/** Where a word too long for its column (a URL) may break, when the line has no space to break at. */
const BREAK_AFTER = new Set(['/', '-', '?', '&', '=', ',', ';', '_', '|']);
/** Share of a column's width filled before breaking: room for the kerning and rounding of the real layout. */
const FILL = 0.97;

export class TextFitter {
  private readonly advances = new Map<string, number>();

  /** `measure` gives a character's width at font size 1 in this fitter's font. */
  constructor(private readonly measure: MeasureCharacter) {}

  widthOf(text: string, size: number): number {
    let width = 0;
    for (const character of text) width += this.advance(character);
    return width * size;
  }

  /** The lines `text` takes in a column `width` points wide at font `size`; explicit line breaks are kept. */
  lines(text: string, size: number, width: number): string[] {
    const limit = (width * FILL) / size;
    const lines: string[] = [];
    for (const paragraph of text.split('\n')) this.breakParagraph(paragraph, limit, lines);
    return lines;
  }

  private breakParagraph(paragraph: string, limit: number, lines: string[]): void {
    const characters = Array.from(paragraph);
    let start = 0;
    while (start < characters.length) {
      let width = 0;
      let end = start;
      let lastSpace = -1;
      let lastPunctuation = -1;
      while (end < characters.length) {
        const advance = this.advance(characters[end]);
        if (width + advance > limit && end > start) {
          if (characters[end] === ' ') lastSpace = end; // the line ends exactly at a space: break there
          break;
        }
        width += advance;
        if (characters[end] === ' ') lastSpace = end + 1;
        else if (BREAK_AFTER.has(characters[end])) lastPunctuation = end + 1;
        end++;
      }
      if (end < characters.length) {
        if (lastSpace > start) end = lastSpace;
        else if (lastPunctuation > start) end = lastPunctuation;
      }
      lines.push(characters.slice(start, end).join('').trimEnd());
      start = end;
      while (start < characters.length && characters[start] === ' ') start++;
    }
    if (characters.length === 0) lines.push('');
  }

  private advance(character: string): number {
    let advance = this.advances.get(character);
    if (advance === undefined) {
      advance = this.measure(character);
      this.advances.set(character, advance);
    }
    return advance;
  }
}
