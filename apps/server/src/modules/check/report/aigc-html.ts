import { type AigcSection, isAigcFigureShown } from '@kyfw/contracts';
import { AIGC_TEXTS } from '../aigc/aigc.texts.ts';
import { shadeOf } from './aigc-pdf.ts';

/**
 * The AIGC section of the standalone HTML report (decision 0020): the document's index (参考值) or
 * the verdict below the reliable range, the figures and reasons, and the text with every flagged
 * paragraph shaded by its index, its index and reasons on hover (title) and printed under it.
 * `esc` is html.ts's escaping.
 */
export function aigcSectionHtml(section: AigcSection, text: string, esc: (s: string) => string): string {
  if (section.status === 'failed') {
    return `<section class="aigc" id="aigc"><h2>${AIGC_TEXTS.sectionHeading}</h2><p>${esc(section.message)}</p></section>`;
  }
  const f = section.figures;
  const rows: [string, string][] = [
    [AIGC_TEXTS.verdict, section.verdict],
    [AIGC_TEXTS.scoredChars, f.scoredChars.toLocaleString('zh-CN')],
    [AIGC_TEXTS.flaggedParagraphs, `${f.flaggedCount} / ${f.paragraphCount}`],
    [AIGC_TEXTS.flaggedShare, `${(f.flaggedShare * 100).toFixed(1)}%`],
    [AIGC_TEXTS.modelVersion, section.modelVersion],
  ];
  const parts: string[] = [];
  let pos = 0;
  for (const p of section.paragraphs) {
    if (p.start > pos) parts.push(`<p class="aigc-plain">${esc(text.slice(pos, p.start))}</p>`);
    const body = esc(text.slice(p.start, p.end));
    if (p.flagged) {
      const shade = shadeOf(p.score);
      const note = AIGC_TEXTS.paragraphNote(p.score, p.reasons);
      parts.push(
        `<p class="aigc-para is-flagged" title="${esc(note)}" style="background:rgba(207,19,34,${shade.opacity.toFixed(3)})">${body}<small>${esc(note)}</small></p>`,
      );
    } else {
      parts.push(`<p class="aigc-para">${body}</p>`);
    }
    pos = p.end;
  }
  if (pos < text.length) parts.push(`<p class="aigc-plain">${esc(text.slice(pos))}</p>`);
  return `<section class="aigc" id="aigc"><h2>${AIGC_TEXTS.sectionHeading}</h2>
<div class="figs"><div class="fig"><span>${AIGC_TEXTS.indexLabel}</span><strong${isAigcFigureShown(f) ? ' style="color:#cf1322"' : ''}>${esc(isAigcFigureShown(f) ? f.score.toFixed(1) : section.verdict)}</strong></div></div>
<p>${rows.map(([k, v]) => `<b>${k}：</b>${esc(v)}`).join('　')}</p>
${section.reasons.length > 0 ? `<p><b>${AIGC_TEXTS.reasonsHeading}：</b>${section.reasons.map(esc).join('；')}</p>` : ''}
<p class="ctx">${esc(AIGC_TEXTS.thresholdNote(f.threshold))}</p>
<h2>${AIGC_TEXTS.sectionTextHeading}</h2>
<div class="aigc-text">${parts.join('\n')}</div></section>`;
}

/** The section's styles (added to html.ts's). */
export const AIGC_CSS = `.aigc-text p{white-space:pre-wrap;word-break:break-all;margin:0 0 8px;padding:2px 4px}.aigc-para.is-flagged{cursor:help}.aigc-para small{display:block;color:#cf1322;font-size:12px}`;
