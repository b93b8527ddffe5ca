import { Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';

/**
 * A new .docx of plain paragraphs: the title, a grey italic line saying what the file is, then the
 * text line by line. For texts that have no .docx of their own to edit (pasted text, a PDF or .doc
 * upload) or whose .docx could not be edited in place (edit-in-place.ts).
 */
export async function renderParagraphsDocx(input: {
  title: string;
  note: string;
  lines: readonly string[];
}): Promise<Uint8Array> {
  const doc = new Document({
    creator: 'kyfw',
    title: input.title,
    sections: [
      {
        children: [
          new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun(input.title)] }),
          new Paragraph({
            children: [new TextRun({ text: input.note, italics: true, size: 18, color: '888888' })],
          }),
          ...input.lines.map((line) => new Paragraph({ children: [new TextRun(line)] })),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}
