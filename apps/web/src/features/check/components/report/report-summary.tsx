import { AimOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { formatChars, formatPercent, rateLevel, sourceMeta } from '../../lib/format';
import { checkTexts as t } from '../../texts';
import type { ReportFigures, ReportSection, ReportSource } from '../../types';

/** The headline figures and the share of each kind of mark. */
export function ReportFiguresView({ figures }: { figures: ReportFigures }) {
  const level = rateLevel(figures.ratio);
  const kinds = [
    { kind: 'verbatim', chars: figures.verbatimChars },
    { kind: 'paraphrase', chars: figures.paraphraseChars },
    { kind: 'quoted', chars: figures.quotedChars },
  ] as const;
  return (
    <section className="rt-figures" aria-label={t.ratio}>
      <div className={`rt-figure rt-figure--main rt-figure--${level}`} data-testid="report-ratio">
        <span className="rt-figure__label">{t.ratio}</span>
        <strong className="rt-figure__value">{formatPercent(figures.ratio)}</strong>
        <span className="rt-figure__bar" aria-hidden>
          <span style={{ width: `${Math.min(100, figures.ratio * 100)}%` }} />
        </span>
      </div>
      <div className="rt-figure">
        <span className="rt-figure__label">{t.ratioExcludingQuotes}</span>
        <strong className="rt-figure__value">{formatPercent(figures.ratioExcludingQuotes)}</strong>
      </div>
      <div className="rt-figure">
        <span className="rt-figure__label">{t.maxSingle}</span>
        <strong className="rt-figure__value">{formatPercent(figures.maxSingleSourceRatio)}</strong>
        {figures.maxSingleSourceTitle && (
          <span className="rt-figure__note" title={figures.maxSingleSourceTitle}>
            {t.maxSingleFrom(figures.maxSingleSourceTitle)}
          </span>
        )}
      </div>
      <div className="rt-figure">
        <span className="rt-figure__label">{t.copiedChars}</span>
        <strong className="rt-figure__value">{formatChars(figures.copiedChars)}</strong>
      </div>
      <div className="rt-figure">
        <span className="rt-figure__label">{t.totalChars}</span>
        <strong className="rt-figure__value">{formatChars(figures.totalChars)}</strong>
      </div>
      <ul className="rt-kinds" aria-label={t.legendTitle}>
        {kinds.map(({ kind, chars }) => (
          <li key={kind} title={t.kindHints[kind]}>
            <span className={`rt-swatch rt-swatch--${kind}`} />
            {t.kinds[kind]}
            <strong>{formatChars(chars)}</strong>
            <span className="muted">
              字（{formatPercent(figures.totalChars ? chars / figures.totalChars : 0)}）
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Bar({ ratio, quoted }: { ratio: number; quoted?: number }) {
  const copied = Math.min(100, ratio * 100);
  const cited = Math.min(copied, (quoted ?? 0) * 100);
  return (
    <span className={`rt-bar rt-bar--${rateLevel(ratio)}`} aria-hidden>
      <span className="rt-bar__fill" style={{ width: `${copied}%` }} />
      {cited > 0 && <span className="rt-bar__quoted" style={{ width: `${cited}%` }} />}
    </span>
  );
}

/** 各章节检测结果: one row per section, with a bar of its rate. */
export function SectionTable({
  sections,
  onJump,
}: {
  sections: ReportSection[];
  onJump: (section: number) => void;
}) {
  return (
    <section className="rt-block" aria-label={t.sectionsTitle}>
      <h3 className="rt-block__title">{t.sectionsTitle}</h3>
      <div className="rt-table-wrap">
        <table className="rt-table">
          <thead>
            <tr>
              <th>{t.sectionCol}</th>
              <th className="num">{t.sectionChars}</th>
              <th className="num">{t.sectionCopied}</th>
              <th className="rt-table__bar">{t.sectionRatio}</th>
              <th className="num">{t.sectionRatioEx}</th>
              <th className="num">{t.sectionMatches}</th>
            </tr>
          </thead>
          <tbody>
            {sections.map((s) => (
              <tr key={s.index} className={s.matchCount > 0 ? 'has-matches' : undefined}>
                <td>
                  <Button
                    type="link"
                    size="small"
                    className="rt-table__jump"
                    onClick={() => onJump(s.index)}
                    title={t.sectionJump}
                  >
                    {s.kind === 'front' ? t.frontSection : s.title || '—'}
                  </Button>
                </td>
                <td className="num">{formatChars(s.chars)}</td>
                <td className="num">{formatChars(s.copiedChars)}</td>
                <td className="rt-table__bar">
                  <div className="rt-table__bar-cell">
                    <Bar ratio={s.ratio} quoted={s.chars ? s.quotedChars / s.chars : 0} />
                    <span className="rt-table__pct">{formatPercent(s.ratio)}</span>
                  </div>
                </td>
                <td className="num">{formatPercent(s.ratioExcludingQuotes)}</td>
                <td className="num">{s.matchCount}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** 相似文献列表: each source with its rate and its share of all copied characters. */
export function SourceList({
  sources,
  onOpen,
}: {
  sources: ReportSource[];
  onOpen: (sourceNo: number) => void;
}) {
  return (
    <section className="rt-block" aria-label={t.sourcesTitle}>
      <h3 className="rt-block__title">
        {t.sourcesTitle}
        <span className="muted"> （{sources.length}）</span>
      </h3>
      {sources.length === 0 ? (
        <p className="muted">{t.sourcesEmpty}</p>
      ) : (
        <ol className="rt-sources">
          {sources.map((s) => (
            <li key={s.no} className="rt-source" data-testid="report-source">
              <span className="rt-source__no">{s.no}</span>
              <div className="rt-source__main">
                <strong className={`rt-source__title${s.titleMissing ? ' is-missing' : ''}`}>
                  {s.title}
                </strong>
                <span className="rt-source__meta muted">{sourceMeta(s)}</span>
                <span className="rt-source__share">
                  <span className="rt-bar rt-bar--share" aria-hidden>
                    <span className="rt-bar__fill" style={{ width: `${Math.min(100, s.share * 100)}%` }} />
                  </span>
                  <span>
                    {t.sourceShare} <strong>{formatPercent(s.share)}</strong>
                  </span>
                </span>
              </div>
              <div className="rt-source__figs">
                <span>
                  {t.sourceRatio} <strong>{formatPercent(s.ratio)}</strong>
                </span>
                <span className="muted">
                  {t.sourceCopied(formatChars(s.copiedChars))} · {t.sourceMatches(s.matchCount)}
                </span>
                <Button size="small" icon={<AimOutlined />} onClick={() => onOpen(s.no)}>
                  {t.sourceFirst}
                </Button>
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
