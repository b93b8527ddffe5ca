import { renderParagraphsDocx } from '../../lib/docx/paragraphs-docx.ts';
import type { Reduction } from './reduction.repo.ts';
import { afterText } from './reduction.service.ts';
import { KIND_NAMES, TEXTS } from './reduction.texts.ts';

/**
 * The rewritten text as a new .docx (pasted text and check reports): the title, a line saying what
 * was done (and, on the sandbox, that the rewrites are template text), then the text paragraph by
 * paragraph. An uploaded .docx is edited in place instead (lib/docx/edit-in-place.ts).
 */
export async function renderReductionDocx(
  r: Reduction,
  options: { formatLost?: boolean } = {},
): Promise<Uint8Array> {
  const note = `${KIND_NAMES[r.kind]}结果${r.sandbox ? `（${TEXTS.sandboxNote}）` : ''}${options.formatLost ? ` ${TEXTS.formatNotKept}` : ''}`;
  return renderParagraphsDocx({ title: r.title, note, lines: afterText(r).split('\n') });
}
