import PDFDocument from 'pdfkit';
import { yieldToEventLoop } from './event-loop';
import { BOLD_FONT, REGULAR_FONT, reportFont } from './report-fonts';
import { TextFitter } from './text-fitter';

/**
 * A small layout engine over PDFKit for reports: headings, paragraphs, key/value blocks and tables that wrap
 * long cells (URLs, hashes), repeat their header row on every page and yield to the event loop between slices
 * of rows, so a report of thousands of rows never blocks the process for long. No browser involved.
 *
 * The document is composed twice (`render`): a measuring pass that only breaks lines and pages, then the
 * drawing pass, which knows the page count ("Página 3 de 12") from the start. So every page is decorated when it
 * opens and PDFKit compresses and writes it as soon as the next one opens, instead of keeping a thousand pages of
 * drawing commands in memory until the end (which made garbage collection stall the process). The table cells
 * are broken into lines once, in the measuring pass, and drawn from there.
 */
const REGULAR = REGULAR_FONT;
const BOLD = BOLD_FONT;

/** Rows drawn between two yields to the event loop. */
const ROWS_PER_SLICE = 25;
const CELL_PADDING = 3;
const TABLE_FONT_SIZE = 7;
/** Page header and footer: the table's size, so the table's character widths right-align "page n of N". */
const DECORATION_FONT_SIZE = TABLE_FONT_SIZE;
const COLORS = { text: '#1a1a1a', muted: '#555555', rule: '#b8b8b8', headerFill: '#e6ebf0', highlightFill: '#fde2e1', accent: '#1f3a5f' };

export interface Column<Row> {
  header: string;
  /** Share of the table's width; the shares of a table add up to 1. */
  width: number;
  cell(row: Row): string;
  align?: 'left' | 'right';
}

export interface TableOptions<Row> {
  /** Rows to set apart (a week without monitoring): shaded and in bold. */
  highlight?(row: Row): boolean;
  empty: string;
}

export interface PageDecoration {
  /** Drawn at the top of every page but the first. */
  header: string;
  /** Drawn at the bottom left of every page. */
  footer: string;
  pageLabel(page: number, pages: number): string;
}

interface TextStyle {
  font: string;
  size: number;
  color: string;
}

export interface DocumentInfo {
  title: string;
  subject: string;
  author: string;
  createdAt: Date;
  keywords: string;
  /** The document's language, for screen readers and text extraction (BCP 47). */
  lang: string;
}

type Pass = 'measure' | 'draw';

export class PdfLayout {
  private readonly doc: PDFKit.PDFDocument;
  private pass: Pass = 'measure';
  private page = 1;
  private pages = 1;
  /** Every table's cell lines, in the order the tables come: made by the measuring pass, drawn by the other. */
  private readonly tables: string[][][][] = [];
  private tableIndex = 0;
  private readonly chunks: Buffer[] = [];
  private readonly finished: Promise<Buffer>;
  private readonly fitters: Record<string, TextFitter>;
  /** Height of a table line, the same in both fonts (one family). */
  private readonly lineHeight: number;

  constructor(
    info: DocumentInfo,
    private readonly truncated: string,
    private readonly decoration: PageDecoration,
  ) {
    this.doc = new PDFDocument({
      size: 'A4',
      layout: 'landscape',
      margins: { top: 48, bottom: 44, left: 36, right: 36 },
      info: { Title: info.title, Subject: info.subject, Author: info.author, Keywords: info.keywords, CreationDate: info.createdAt, ModDate: info.createdAt },
      lang: info.lang,
      displayTitle: true,
    });
    this.doc.registerFont(REGULAR, reportFont(REGULAR));
    this.doc.registerFont(BOLD, reportFont(BOLD));
    this.doc.font(REGULAR).fillColor(COLORS.text);
    this.fitters = { [REGULAR]: this.fitterFor(REGULAR), [BOLD]: this.fitterFor(BOLD) };
    this.lineHeight = this.doc.font(REGULAR).fontSize(TABLE_FONT_SIZE).currentLineHeight(true);
    this.finished = new Promise((resolve, reject) => {
      this.doc.on('data', (chunk: Buffer) => this.chunks.push(chunk));
      this.doc.on('end', () => resolve(Buffer.concat(this.chunks)));
      this.doc.on('error', reject);
    });
  }

  private fitterFor(font: string): TextFitter {
    return new TextFitter((character) => this.doc.font(font).fontSize(TABLE_FONT_SIZE).widthOfString(character) / TABLE_FONT_SIZE);
  }

  private get left(): number {
    return this.doc.page.margins.left;
  }
  private get contentWidth(): number {
    return this.doc.page.width - this.doc.page.margins.left - this.doc.page.margins.right;
  }
  private get bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  /** Composes the document twice, measuring then drawing (see above), and answers the finished file. */
  async render(compose: () => Promise<void>): Promise<Buffer> {
    await compose();
    this.pages = this.page;
    this.pass = 'draw';
    this.page = 1;
    this.tableIndex = 0;
    this.doc.x = this.left;
    this.doc.y = this.doc.page.margins.top;
    this.decorate();
    await compose();
    this.doc.end();
    return this.finished;
  }

  newPage(): void {
    this.page += 1;
    if (this.drawing) {
      this.doc.addPage();
      this.decorate();
    }
    this.doc.x = this.left;
    this.doc.y = this.doc.page.margins.top;
  }

  title(text: string, subtitle: string): void {
    this.block(clean(text), { font: BOLD, size: 20, color: COLORS.accent });
    this.doc.moveDown(0.3);
    this.block(clean(subtitle), { font: REGULAR, size: 11, color: COLORS.muted });
    this.doc.moveDown(1.2);
  }

  heading(text: string, level: 1 | 2 = 1): void {
    const size = level === 1 ? 14 : 11.5;
    this.ensureRoom(size * 4);
    this.doc.font(BOLD).fontSize(size).moveDown(level === 1 ? 0.4 : 0.8);
    this.block(clean(text), { font: BOLD, size, color: COLORS.accent });
    this.doc.moveDown(0.3);
  }

  paragraph(text: string, options: { muted?: boolean; bold?: boolean; size?: number } = {}): void {
    const style = { font: options.bold ? BOLD : REGULAR, size: options.size ?? 9, color: options.muted ? COLORS.muted : COLORS.text };
    this.ensureRoom(this.heightOf(clean(text), style, this.contentWidth));
    this.block(clean(text), style);
    this.doc.moveDown(0.4);
  }

  /** Label: value lines, the labels in bold in a column of their own (the cover, the summaries). */
  keyValues(pairs: Array<[label: string, value: string]>, options: { labelWidth?: number; size?: number } = {}): void {
    const size = options.size ?? 10;
    const labelWidth = options.labelWidth ?? 220;
    const valueWidth = this.contentWidth - labelWidth - 8;
    const label = { font: BOLD, size, color: COLORS.text };
    const value = { font: REGULAR, size, color: COLORS.text };
    for (const [name, text] of pairs) {
      const height = Math.max(this.heightOf(clean(name), label, labelWidth), this.heightOf(clean(text), value, valueWidth));
      this.ensureRoom(height + 4);
      const y = this.doc.y;
      this.write(clean(name), label, this.left, y, labelWidth);
      this.write(clean(text), value, this.left + labelWidth + 8, y, valueWidth);
      this.doc.x = this.left;
      this.doc.y = y + height + 4;
    }
    this.doc.font(REGULAR).fontSize(size).moveDown(0.4);
  }

  async table<Row>(columns: Column<Row>[], rows: readonly Row[], options: TableOptions<Row>): Promise<void> {
    if (rows.length === 0) {
      this.paragraph(options.empty, { muted: true });
      return;
    }
    const widths = columns.map((column) => column.width * this.contentWidth);
    const textWidths = widths.map((width) => width - 2 * CELL_PADDING);
    const aligns = columns.map((column) => column.align ?? 'left');
    const highlighted = rows.map((row) => options.highlight?.(row) ?? false);
    const cells = await this.tableCells(columns, rows, textWidths, highlighted);
    const header = this.cellLines(columns.map((column) => column.header), textWidths, BOLD);
    // The header row never ends a page alone: it starts where the first row fits under it.
    this.ensureRoom(this.rowHeight(header) + this.rowHeight(cells[0]));
    this.drawRow(header, widths, aligns, { font: BOLD, fill: COLORS.headerFill });
    for (let index = 0; index < rows.length; index++) {
      if (index > 0 && index % ROWS_PER_SLICE === 0) await yieldToEventLoop();
      if (this.doc.y + this.rowHeight(cells[index]) > this.bottom) {
        this.newPage();
        this.drawRow(header, widths, aligns, { font: BOLD, fill: COLORS.headerFill });
      }
      const font = highlighted[index] ? BOLD : REGULAR;
      this.drawRow(cells[index], widths, aligns, { font, fill: highlighted[index] ? COLORS.highlightFill : undefined });
    }
    this.doc.x = this.left;
    this.doc.font(REGULAR).fontSize(TABLE_FONT_SIZE).moveDown(0.6);
  }

  /** The rows' cells as lines: broken in the measuring pass (in slices), taken from there in the drawing pass. */
  private async tableCells<Row>(columns: Column<Row>[], rows: readonly Row[], textWidths: number[], highlighted: boolean[]): Promise<string[][][]> {
    if (this.drawing) return this.tables[this.tableIndex++];
    const cells: string[][][] = [];
    for (let index = 0; index < rows.length; index++) {
      if (index > 0 && index % ROWS_PER_SLICE === 0) await yieldToEventLoop();
      cells.push(this.cellLines(columns.map((column) => clean(column.cell(rows[index]))), textWidths, highlighted[index] ? BOLD : REGULAR));
    }
    this.tables.push(cells);
    return cells;
  }

  private get drawing(): boolean {
    return this.pass === 'draw';
  }

  /** Text across the content width at the current position; the position moves below it. */
  private block(text: string, style: TextStyle): void {
    const height = this.heightOf(text, style, this.contentWidth);
    this.write(text, style, this.left, this.doc.y, this.contentWidth);
    this.doc.x = this.left;
    this.doc.y += height;
  }

  private heightOf(text: string, style: TextStyle, width: number): number {
    return this.doc.font(style.font).fontSize(style.size).heightOfString(text, { width });
  }

  /** Draws wrapped text in the drawing pass only; the caller moves the position by the measured height. */
  private write(text: string, style: TextStyle, x: number, y: number, width: number): void {
    if (!this.drawing) return;
    const [keepX, keepY] = [this.doc.x, this.doc.y];
    this.doc.font(style.font).fontSize(style.size).fillColor(style.color).text(text, x, y, { width });
    this.doc.fillColor(COLORS.text);
    [this.doc.x, this.doc.y] = [keepX, keepY];
  }

  /** The page's header (all but the first), footer and "page n of N", drawn when the page opens. */
  private decorate(): void {
    const { margins } = this.doc.page;
    const bottomMargin = margins.bottom;
    // Writing inside the bottom margin would make PDFKit open a new page: lift the margin while decorating.
    margins.bottom = 0;
    const footerY = this.doc.page.height - bottomMargin + 14;
    this.doc.font(REGULAR).fontSize(DECORATION_FONT_SIZE).fillColor(COLORS.muted);
    // One line each, drawn as is (no width: PDFKit's line wrapper would run for every page of a long report).
    if (this.page > 1) {
      this.doc.text(clean(this.decoration.header), this.left, margins.top - 26, { lineBreak: false });
      this.doc.strokeColor(COLORS.rule).lineWidth(0.5).moveTo(this.left, margins.top - 12).lineTo(this.left + this.contentWidth, margins.top - 12).stroke();
    }
    this.doc.text(clean(this.decoration.footer), this.left, footerY, { lineBreak: false });
    const label = this.decoration.pageLabel(this.page, this.pages);
    this.doc.text(label, this.left + this.contentWidth - this.fitters[REGULAR].widthOf(label, DECORATION_FONT_SIZE), footerY, { lineBreak: false });
    this.doc.fillColor(COLORS.text);
    margins.bottom = bottomMargin;
    this.doc.x = this.left;
    this.doc.y = margins.top;
  }

  private ensureRoom(height: number): void {
    if (this.doc.y + height > this.bottom) this.newPage();
  }

  /** Each cell as its lines; a row never grows past what fits on a page under the header row (cut, with a note). */
  private cellLines(cells: string[], textWidths: number[], font: string): string[][] {
    const fitter = this.fitters[font];
    const maxLines = Math.floor((this.bottom - this.doc.page.margins.top - 60) / this.lineHeight);
    return cells.map((text, i) => {
      const lines = text ? fitter.lines(text, TABLE_FONT_SIZE, textWidths[i]) : [];
      if (lines.length <= maxLines) return lines;
      const note = fitter.lines(this.truncated, TABLE_FONT_SIZE, textWidths[i]);
      return [...lines.slice(0, maxLines - note.length - 1), '…', ...note];
    });
  }

  private rowHeight(cells: string[][]): number {
    return Math.max(1, ...cells.map((lines) => lines.length)) * this.lineHeight + 2 * CELL_PADDING;
  }

  private drawRow(cells: string[][], widths: number[], aligns: Array<'left' | 'right'>, style: { font: string; fill?: string }): void {
    const y = this.doc.y;
    const height = this.rowHeight(cells);
    this.doc.y = y + height;
    if (!this.drawing) return;
    const width = widths.reduce((sum, w) => sum + w, 0);
    if (style.fill) this.doc.rect(this.left, y, width, height).fill(style.fill);
    this.doc.fillColor(COLORS.text).font(style.font).fontSize(TABLE_FONT_SIZE);
    let x = this.left;
    for (let i = 0; i < cells.length; i++) {
      const textWidth = widths[i] - 2 * CELL_PADDING;
      cells[i].forEach((line, n) => {
        const offset = aligns[i] === 'right' ? Math.max(0, textWidth - this.fitters[style.font].widthOf(line, TABLE_FONT_SIZE)) : 0;
        // One call per line, without a width: PDFKit draws the line as given instead of wrapping it again.
        if (line) this.doc.text(line, x + CELL_PADDING + offset, y + CELL_PADDING + n * this.lineHeight, { lineBreak: false });
      });
      x += widths[i];
    }
    this.doc.strokeColor(COLORS.rule).lineWidth(0.4).moveTo(this.left, y + height).lineTo(this.left + width, y + height).stroke();
    this.doc.x = this.left;
    this.doc.y = y + height;
  }
}

const PLAIN_ASCII = /^[\x20-\x7e\n]*$/;

/** What a PDF text run can show: no control characters (CR, tab, NUL…) that would print as boxes or break lines twice. */
export function clean(text: string): string {
  if (PLAIN_ASCII.test(text)) return text; // most cells (URLs, hashes, dates): nothing to do
  // eslint-disable-next-line no-control-regex -- control characters are what this strips
  return text.normalize('NFC').replace(/\r\n?/g, '\n').replace(/\t/g, ' ').replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, '');
}
