/**
 * Offset → 1-based line lookups over one text, built once per file so that a check that
 * reports many findings does not rescan the text for each one.
 */

/** Line starts of a text, with a binary search from character offsets to 1-based lines. */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  /** 1-based line of the character at `offset` (clamped to the text). */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /**
   * 1-based column of the character at `offset` on its line, counted in UTF-16 code units (as
   * JavaScript strings index, and SARIF's default `columnKind` `utf16CodeUnits`, SARIF 2.1.0
   * section 3.14.17).
   */
  columnOf(offset: number): number {
    return offset - this.startOf(this.lineOf(offset)) + 1;
  }

  /** Offset of the first character of 1-based `line` (the text's length past the end). */
  startOf(line: number): number {
    return this.starts[line - 1] ?? this.text.length;
  }

  /** The text of 1-based `line`, without its line break. */
  lineText(line: number): string {
    const start = this.starts[line - 1];
    if (start === undefined) return '';
    const next = this.starts[line];
    return this.text.slice(start, next === undefined ? undefined : next - 1).replace(/\r$/u, '');
  }

  /** Number of lines (a final newline does not open a new line). */
  get lineCount(): number {
    return this.text.endsWith('\n') ? this.starts.length - 1 : this.starts.length;
  }
}
