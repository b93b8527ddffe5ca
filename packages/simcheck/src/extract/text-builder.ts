import { ExtractError } from './errors.ts';
import { detailMessages, footnotesTitle } from './messages.ts';
import type { ExtractedHeading } from './types.ts';

/**
 * Accumulates extracted lines into one string while recording heading offsets, and stops the work
 * as soon as the text passes maxChars (so a huge document fails early instead of filling memory).
 */
export class TextBuilder {
  private readonly parts: string[] = [];
  private length = 0;
  private readonly maxChars: number;
  readonly headings: ExtractedHeading[] = [];
  footnotesStart: number | undefined;

  constructor(maxChars: number) {
    this.maxChars = maxChars;
  }

  /** Adds one line (a paragraph, a heading or a table row); '\r\n' and '\r' inside become '\n'. */
  addLine(line: string, headingLevel?: number): void {
    const text = normaliseNewlines(line);
    if (this.length > 0) this.append('\n');
    const start = this.length;
    this.append(text);
    if (headingLevel !== undefined && text.trim() !== '' && !text.includes('\n')) {
      this.headings.push({ start, end: start + text.length, level: headingLevel, text });
    }
  }

  /** Starts the notes section: a line '注释' whose offset becomes footnotesStart. */
  startFootnotes(): void {
    if (this.length > 0) this.append('\n');
    this.footnotesStart = this.length;
    this.append(footnotesTitle);
  }

  toString(): string {
    return this.parts.join('');
  }

  private append(text: string): void {
    this.length += text.length;
    if (this.length > this.maxChars)
      throw new ExtractError('too-large', detailMessages.tooManyChars(this.maxChars));
    this.parts.push(text);
  }
}

export function normaliseNewlines(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}
