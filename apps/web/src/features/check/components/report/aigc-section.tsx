import { isAigcFigureShown } from '@kyfw/contracts';
import { Alert, Tag, Tooltip } from 'antd';
import { type ReactNode, useMemo } from 'react';
import { checkTexts } from '../../texts';
import type { AigcParagraph, AigcReportModel, AigcSection } from '../../types';

const a = checkTexts.aigc;

/** Background of a paragraph: flagged ones red, stronger for a higher index; others none. */
export function shadeOf(p: Pick<AigcParagraph, 'score' | 'flagged'>): string | undefined {
  if (!p.flagged) return undefined;
  const alpha = 0.1 + 0.3 * Math.min(1, Math.max(0, (p.score - 50) / 50));
  return `rgba(207, 19, 34, ${alpha.toFixed(3)})`;
}

/** The text cut into plain runs and scored paragraphs (offsets are UTF-16, as the model's). */
function pieces(text: string, paragraphs: AigcParagraph[]): { text: string; paragraph?: AigcParagraph }[] {
  const out: { text: string; paragraph?: AigcParagraph }[] = [];
  let pos = 0;
  for (const p of paragraphs) {
    if (p.start > pos) out.push({ text: text.slice(pos, p.start) });
    out.push({ text: text.slice(p.start, p.end), paragraph: p });
    pos = p.end;
  }
  if (pos < text.length) out.push({ text: text.slice(pos) });
  return out;
}

function tipOf(p: AigcParagraph): ReactNode {
  if (!p.flagged) return a.paragraphNone;
  return (
    <div>
      <strong>{a.paragraphTip(p.score)}</strong>
      <ul className="aigc-tip__reasons">
        {p.reasons.map((r) => (
          <li key={r}>{r}</li>
        ))}
      </ul>
    </div>
  );
}

type AigcResult = Pick<AigcReportModel, 'figures' | 'verdict' | 'reasons' | 'modelVersion'>;

/**
 * The document's index, figures and reasons, all 参考值. The index is shown in the reliable range and
 * whenever a paragraph is flagged (with the verdict beside it), so it never disagrees with the
 * shading; otherwise the verdict (未见明显AI生成特征 or too short) stands in its place.
 */
export function AigcFigures({ result }: { result: AigcResult }) {
  const f = result.figures;
  const shown = isAigcFigureShown(f);
  return (
    <section className="aigc-figures" aria-label={a.indexLabel}>
      <div className="aigc-figures__main">
        <span className="aigc-figures__label">{a.indexLabel}</span>
        <strong className={`aigc-figures__value${shown ? ' is-flagged' : ''}`} data-testid="aigc-index">
          {shown ? f.score.toFixed(1) : result.verdict}
        </strong>
        {shown && <span className="aigc-figures__verdict">{result.verdict}</span>}
      </div>
      <dl className="aigc-figures__list">
        <div>
          <dt>{a.flagged}（参考）</dt>
          <dd>
            {f.flaggedCount} / {f.paragraphCount}
          </dd>
        </div>
        <div>
          <dt>{a.flaggedShare}（参考）</dt>
          <dd>{(f.flaggedShare * 100).toFixed(1)}%</dd>
        </div>
        <div>
          <dt>{a.scoredChars}</dt>
          <dd>{f.scoredChars.toLocaleString('zh-CN')}</dd>
        </div>
        <div>
          <dt>{a.model}</dt>
          <dd>{result.modelVersion}</dd>
        </div>
      </dl>
      {result.reasons.length > 0 && (
        <div className="aigc-figures__reasons">
          <span className="aigc-figures__label">{a.reasons}</span>
          {result.reasons.map((r) => (
            <Tag key={r} color="red">
              {r}
            </Tag>
          ))}
        </div>
      )}
    </section>
  );
}

/** The text with flagged paragraphs shaded by their index, index and reasons on hover (or focus). */
export function AigcShadedText({ text, paragraphs }: { text: string; paragraphs: AigcParagraph[] }) {
  const parts = useMemo(() => pieces(text, paragraphs), [text, paragraphs]);
  return (
    <div className="aigc-text">
      {parts.map((part) =>
        part.paragraph ? (
          <Tooltip key={`p${part.paragraph.start}`} title={tipOf(part.paragraph)} placement="topLeft">
            <p
              className={`aigc-text__para${part.paragraph.flagged ? ' is-flagged' : ''}`}
              style={{ background: shadeOf(part.paragraph) }}
              data-score={part.paragraph.score}
              data-flagged={part.paragraph.flagged}
              // biome-ignore lint/a11y/noNoninteractiveTabindex: the tooltip opens on keyboard focus too
              tabIndex={0}
            >
              {part.text}
            </p>
          </Tooltip>
        ) : (
          <p key={`g${part.text.length}-${part.text.slice(0, 8)}`} className="aigc-text__plain">
            {part.text}
          </p>
        ),
      )}
    </div>
  );
}

/**
 * The AIGC section of a similarity report (同时检测AIGC, decision 0020): the disclaimer, the
 * document's index and reasons, and the checked text shaded by paragraph — or why the detection
 * could not be done and what was given back.
 */
export function AigcSectionView({ section, text }: { section: AigcSection; text: string }) {
  return (
    <section
      className="rt-block report-aigc"
      aria-label={checkTexts.addon.sectionTitle}
      data-testid="aigc-section"
    >
      <h3 className="rt-block__title">{checkTexts.addon.sectionTitle}</h3>
      {section.status === 'failed' ? (
        <Alert
          className="report-aigc__note"
          type="warning"
          showIcon
          title={checkTexts.addon.sectionFailed}
          description={section.message}
        />
      ) : (
        <>
          <Alert
            className="report-aigc__note"
            type="info"
            showIcon
            title={a.disclaimerTitle}
            description={section.notes[0] ?? a.verifyDisclaimer}
          />
          <AigcFigures result={section} />
          <h4 className="report-aigc__text-title">
            {a.textTitle}
            <span className="rt-block__hint muted">{a.legend}</span>
          </h4>
          <AigcShadedText text={text} paragraphs={section.paragraphs} />
        </>
      )}
    </section>
  );
}
