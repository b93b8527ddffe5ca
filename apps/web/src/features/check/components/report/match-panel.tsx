import { CloseOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Button, Tag } from 'antd';
import { formatChars, sourceMeta } from '../../lib/format';
import { checkTexts as t } from '../../texts';
import type { MatchKind, ReportModel, ReportSource } from '../../types';

export const KIND_COLORS: Record<MatchKind, string> = {
  verbatim: 'red',
  paraphrase: 'orange',
  quoted: 'green',
};

const CONTEXT = 60;

/** The paper's own text around a match, within its line. */
function contextOf(text: string, start: number, end: number) {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  let lineEnd = text.indexOf('\n', end);
  if (lineEnd === -1) lineEnd = text.length;
  const from = Math.max(lineStart, start - CONTEXT);
  const to = Math.min(lineEnd, end + CONTEXT);
  return {
    before: (from > lineStart ? '…' : '') + text.slice(from, start),
    text: text.slice(start, end),
    after: text.slice(end, to) + (to < lineEnd ? '…' : ''),
  };
}

export interface MatchPanelProps {
  report: ReportModel;
  sources: Map<number, ReportSource>;
  /** Match indices in reading order. */
  order: number[];
  active: number | null;
  onSelect: (match: number) => void;
  onClose: () => void;
}

/** The source passage beside the text: the paper's passage and the similar one, with the source. */
export function MatchPanel({ report, sources, order, active, onSelect, onClose }: MatchPanelProps) {
  const match = active === null ? undefined : report.matches[active];
  if (!match) {
    return (
      <aside className="rt-panel rt-panel--idle" aria-label={t.drawerTitle}>
        <p className="rt-panel__hint">{order.length > 0 ? t.fullTextHint : t.noMatches}</p>
        {order.length > 0 && (
          <Button size="small" className="rt-panel__first" onClick={() => onSelect(order[0]!)}>
            {t.firstMatch(order.length)}
          </Button>
        )}
        <ul className="rt-legend">
          {(['verbatim', 'paraphrase', 'quoted'] as const).map((kind) => (
            <li key={kind}>
              <span className={`rt-swatch rt-swatch--${kind}`} />
              <strong>{t.kinds[kind]}</strong>
              <span className="muted">{t.kindHints[kind]}</span>
            </li>
          ))}
        </ul>
      </aside>
    );
  }
  const position = order.indexOf(match.index);
  const source = sources.get(match.sourceNo);
  const mine = contextOf(report.text, match.start, match.end);
  const theirs = match.sourcePassage;
  const go = (delta: number) => {
    const next = order[position + delta];
    if (next !== undefined) onSelect(next);
  };
  return (
    <aside className="rt-panel" aria-label={t.drawerTitle} data-testid="match-panel">
      <header className="rt-panel__head">
        <Tag color={KIND_COLORS[match.kind]}>{t.kinds[match.kind]}</Tag>
        <span className="rt-panel__pos">{t.matchOf(position + 1, order.length)}</span>
        <span className="rt-panel__nav">
          <Button size="small" icon={<LeftOutlined />} disabled={position <= 0} onClick={() => go(-1)}>
            {t.prevMatch}
          </Button>
          <Button
            size="small"
            icon={<RightOutlined />}
            iconPlacement="end"
            disabled={position < 0 || position >= order.length - 1}
            onClick={() => go(1)}
          >
            {t.nextMatch}
          </Button>
          <Button size="small" type="text" icon={<CloseOutlined />} aria-label="关闭" onClick={onClose} />
        </span>
      </header>
      <div className="rt-compare">
        <section className="rt-compare__side">
          <h5>
            {t.mine}
            <span className="muted">
              {' '}
              · {t.matchChars(formatChars(match.chars))}
              {report.sections[match.section] ? ` · ${report.sections[match.section]!.title}` : ''}
            </span>
          </h5>
          <p className="rt-compare__text">
            <span className="muted">{mine.before}</span>
            <mark className={`rt-mark rt-mark--${match.kind}`}>{mine.text}</mark>
            <span className="muted">{mine.after}</span>
          </p>
        </section>
        <section className="rt-compare__side rt-compare__side--source">
          <h5>{t.theirs}</h5>
          {source && (
            <p className="rt-compare__source">
              <strong>
                [{source.no}] {source.title}
              </strong>
              {sourceMeta(source) && <span className="muted">{sourceMeta(source)}</span>}
            </p>
          )}
          {theirs.text ? (
            <p className="rt-compare__text" data-testid="source-passage">
              <span className="muted">{theirs.before ? `…${theirs.before}` : ''}</span>
              <mark className={`rt-mark rt-mark--${match.kind}`}>{theirs.text}</mark>
              <span className="muted">{theirs.after ? `${theirs.after}…` : ''}</span>
            </p>
          ) : (
            <p className="muted">{t.sourceUnknown}</p>
          )}
        </section>
      </div>
    </aside>
  );
}
