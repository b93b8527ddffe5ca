import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Tag, Tooltip } from 'antd';
import { type ReactNode, useMemo } from 'react';
import { Link } from 'react-router';
import { checkTexts } from '../../texts';
import type { AigcParagraph, AigcReportModel } from '../../types';
import { DownloadButtons } from './download-buttons';
import { ReportHead, ReportNotices } from './report-header';
import { verifyPathOf } from './report-view';

const a = checkTexts.aigc;

/** Background of a paragraph: flagged ones red, stronger for a higher index; others none. */
export function shadeOf(p: Pick<AigcParagraph, 'score' | 'flagged'>): string | undefined {
  if (!p.flagged) return undefined;
  const alpha = 0.1 + 0.3 * Math.min(1, Math.max(0, (p.score - 50) / 50));
  return `rgba(207, 19, 34, ${alpha.toFixed(3)})`;
}

/** The text cut into plain runs and scored paragraphs (offsets are UTF-16, as the model's). */
function pieces(report: AigcReportModel): { text: string; paragraph?: AigcParagraph }[] {
  const out: { text: string; paragraph?: AigcParagraph }[] = [];
  let pos = 0;
  for (const p of report.paragraphs) {
    if (p.start > pos) out.push({ text: report.text.slice(pos, p.start) });
    out.push({ text: report.text.slice(p.start, p.end), paragraph: p });
    pos = p.end;
  }
  if (pos < report.text.length) out.push({ text: report.text.slice(pos) });
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

/**
 * The AIGC detection report: number, time and verification code; the notice that every figure is a
 * reference value; the document's index (or 未见明显AI生成特征) with its reasons; the full text with
 * flagged paragraphs shaded by their index, the index and reasons on hover; the PDF.
 */
export function AigcReportView({ report }: { report: AigcReportModel }) {
  const parts = useMemo(() => pieces(report), [report]);
  const f = report.figures;
  return (
    <article className="report" data-testid="aigc-report">
      <ReportHead report={report} title={a.reportTitle} />

      <ReportNotices notes={report.notes} fallback={a.disclaimerTitle} />

      <div className="report__actions">
        <DownloadButtons orderId={report.orderId} title={report.title} formats={['pdf']} />
        <Link to={verifyPathOf(report)} className="report__verify">
          <SafetyCertificateOutlined /> {a.verify}
        </Link>
      </div>

      <section className="aigc-figures" aria-label={a.indexLabel}>
        <div className="aigc-figures__main">
          <span className="aigc-figures__label">{a.indexLabel}</span>
          <strong
            className={`aigc-figures__value${f.reliable ? ' is-flagged' : ''}`}
            data-testid="aigc-index"
          >
            {f.reliable ? f.score.toFixed(1) : report.verdict}
          </strong>
          {f.reliable && <span className="aigc-figures__verdict">{report.verdict}</span>}
        </div>
        <dl className="aigc-figures__list">
          <div>
            <dt>{a.flagged}</dt>
            <dd>
              {f.flaggedCount} / {f.paragraphCount}
            </dd>
          </div>
          <div>
            <dt>{a.flaggedShare}</dt>
            <dd>{(f.flaggedShare * 100).toFixed(1)}%</dd>
          </div>
          <div>
            <dt>{a.scoredChars}</dt>
            <dd>{f.scoredChars.toLocaleString('zh-CN')}</dd>
          </div>
          <div>
            <dt>{a.model}</dt>
            <dd>{report.modelVersion}</dd>
          </div>
        </dl>
        {report.reasons.length > 0 && (
          <div className="aigc-figures__reasons">
            <span className="aigc-figures__label">{a.reasons}</span>
            {report.reasons.map((r) => (
              <Tag key={r} color="red">
                {r}
              </Tag>
            ))}
          </div>
        )}
      </section>

      <section className="rt-block" aria-label={a.textTitle}>
        <h3 className="rt-block__title">
          {a.textTitle}
          <span className="rt-block__hint muted">{a.legend}</span>
        </h3>
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
      </section>
    </article>
  );
}
