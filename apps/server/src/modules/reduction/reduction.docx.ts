import { Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import type { Reduction } from './reduction.repo.ts';
import { afterText } from './reduction.service.ts';
import { KIND_NAMES, TEXTS } from './reduction.texts.ts';

/**
 * The rewritten text as a new .docx (pasted text and check reports): the title, a line saying what
 * was done (and, on the sandbox, that the rewrites are template text), then the text paragraph by
 * paragraph. An uploaded .docx is edited in place instead (reduction.docx-edit.ts).
 */
export async function renderReductionDocx(
  r: Reduction,
  options: { formatLost?: boolean } = {},
): Promise<Uint8Array> {
  const lines = afterText(r).split('\n');
  const note = `${KIND_NAMES[r.kind]}结果${r.sandbox ? `（${TEXTS.sandboxNote}）` : ''}${options.formatLost ? ` ${TEXTS.formatNotKept}` : ''}`;
  const doc = new Document({
    creator: 'kyfw',
    title: r.title,
    sections: [
      {
        children: [
          new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun(r.title)] }),
          new Paragraph({
            children: [new TextRun({ text: note, italics: true, size: 18, color: '888888' })],
          }),
          ...lines.map((line) => new Paragraph({ children: [new TextRun(line)] })),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}
