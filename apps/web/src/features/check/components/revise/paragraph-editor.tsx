import type { LiveParagraph, ParagraphMark, ReportModel } from '@kyfw/contracts';
import { REVISE_RULES } from '@kyfw/contracts';
import { Alert, Button, Input, Space, Tag } from 'antd';
import { useMemo } from 'react';
import { formatPercent } from '../../lib/format';
import type { RevisableParagraph } from '../../lib/revise';
import { checkTexts } from '../../texts';

const t = checkTexts.revise;

/** The signed report's marks of a paragraph, in the live marks' shape (before its first re-check). */
function reportMarksOf(report: ReportModel, p: RevisableParagraph): ParagraphMark[] {
  const titles = new Map(report.sources.map((s) => [s.no, s.title]));
  return report.matches
    .filter((m) => m.end > p.start && m.start < p.end)
    .map((m) => ({
      start: Math.max(m.start, p.start) - p.start,
      end: Math.min(m.end, p.end) - p.start,
      kind: m.kind,
      sourceNo: m.sourceNo,
      sourceTitle: titles.get(m.sourceNo) ?? '',
      sourcePassage: m.sourcePassage,
    }));
}

function Marked({ text, marks }: { text: string; marks: readonly ParagraphMark[] }) {
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const m of [...marks].sort((a, b) => a.start - b.start)) {
    if (m.start < at) continue;
    if (m.start > at) parts.push(text.slice(at, m.start));
    parts.push(
      <mark key={m.start} className={`rt-mark rt-mark--${m.kind}`}>
        {text.slice(m.start, m.end)}
      </mark>,
    );
    at = m.end;
  }
  parts.push(text.slice(at));
  return <p className="rv-preview">{parts}</p>;
}

export interface ParagraphEditorProps {
  report: ReportModel;
  paragraph: RevisableParagraph;
  value: string;
  /** The last re-check of this paragraph's current text; undefined before one. */
  live: LiveParagraph | undefined;
  checking: boolean;
  serverMs: number | null;
  canUndo: boolean;
  onChange: (text: string) => void;
  onUndo: () => void;
  onRestore: () => void;
  onClose: () => void;
}

/**
 * One paragraph in the editor: the text, its marks as last re-checked (or as in the report), its
 * rate and AIGC index, and the sources its marks point to beside it.
 */
export function ParagraphEditor(props: ParagraphEditorProps) {
  const { report, paragraph, value, live } = props;
  const marks = useMemo(
    () => live?.marks ?? (value === paragraph.text ? reportMarksOf(report, paragraph) : []),
    [live, value, paragraph, report],
  );
  const shown = live?.text ?? value;
  const sources = useMemo(() => {
    const seen = new Map<number, ParagraphMark>();
    for (const m of marks) if (!seen.has(m.sourceNo)) seen.set(m.sourceNo, m);
    return [...seen.values()];
  }, [marks]);
  const tooLong = value.length > REVISE_RULES.paragraphMaxChars;
  const rate = live ? live.rate : value === paragraph.text ? paragraph.rate : null;
  return (
    <div className="rv-editor" data-testid="revise-editor" data-index={paragraph.index}>
      <div className="rv-editor__head">
        <strong>{t.paragraphNo(paragraph.index)}</strong>
        <Space size={4} wrap>
          <Tag color={rate !== null && rate > 0 ? 'red' : 'green'} data-testid="revise-paragraph-rate">
            {t.paragraphRate} {rate === null ? '…' : formatPercent(rate)}
          </Tag>
          <Tag data-testid="revise-paragraph-aigc">
            {t.paragraphAigc}{' '}
            {live ? (live.aigcScore === null ? t.notScored : live.aigcScore.toFixed(1)) : '…'}
          </Tag>
          <span className="muted rv-status" aria-live="polite">
            {props.checking
              ? t.checking
              : props.serverMs !== null
                ? t.checkedIn(props.serverMs)
                : t.typeToCheck}
          </span>
        </Space>
      </div>
      <div className="rv-editor__body">
        <div className="rv-editor__main">
          <Input.TextArea
            aria-label={t.paragraphNo(paragraph.index)}
            value={value}
            autoSize={{ minRows: 4, maxRows: 14 }}
            onChange={(e) => props.onChange(e.target.value)}
            status={tooLong ? 'error' : undefined}
            data-testid="revise-textarea"
          />
          {tooLong && <Alert type="error" showIcon message={REVISE_RULES.paragraphTooLong} />}
          <Marked text={shown} marks={marks} />
          <Space wrap>
            <Button onClick={props.onUndo} disabled={!props.canUndo}>
              {t.undo}
            </Button>
            <Button onClick={props.onRestore} disabled={value === paragraph.text}>
              {t.restore}
            </Button>
            <Button type="primary" onClick={props.onClose}>
              {t.closeEditor}
            </Button>
          </Space>
        </div>
        <aside className="rv-editor__sources" aria-label={t.sources}>
          <h4>{t.sources}</h4>
          {sources.length === 0 ? (
            <p className="muted">{t.sourcesNone}</p>
          ) : (
            sources.map((m) => (
              <div key={m.sourceNo} className="rv-source">
                <div className="rv-source__title">
                  [{m.sourceNo}] {m.sourceTitle}
                </div>
                <p className="rv-source__passage">
                  <span className="muted">{m.sourcePassage.before}</span>
                  <mark className={`rt-mark rt-mark--${m.kind}`}>{m.sourcePassage.text}</mark>
                  <span className="muted">{m.sourcePassage.after}</span>
                </p>
              </div>
            ))
          )}
        </aside>
      </div>
    </div>
  );
}
