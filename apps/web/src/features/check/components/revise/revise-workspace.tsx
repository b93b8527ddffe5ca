import { DownloadOutlined } from '@ant-design/icons';
import type { LiveFigures, LiveParagraph, ReportModel } from '@kyfw/contracts';
import { REVISE_RULES } from '@kyfw/contracts';
import { Alert, Button, Result, Spin, Tag } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useDownloadRevised, useRecheckParagraph, useReviseState, useSaveVersion } from '../../api/revise';
import { formatPercent } from '../../lib/format';
import { flaggedFirst, revisableParagraphs, signedFigures } from '../../lib/revise';
import { checkTexts } from '../../texts';
import { ParagraphEditor } from './paragraph-editor';
import { ReviseFigures } from './revise-figures';
import { VersionsPanel } from './versions-panel';
import './revise.css';

const t = checkTexts.revise;

/** Pause in typing after which the paragraph is re-checked (ms). */
export const RECHECK_DEBOUNCE_MS = 700;
const EXCERPT = 90;

/**
 * 在线修改 · 实时复检 (issue 24): the report's paragraphs, flagged first, each opening in an editor;
 * a pause in typing re-checks it on the server (the full check's code, the same library and
 * collections) and the paragraph's marks, rate and AIGC index and the document's figures update
 * beside the signed report's. The working copy is saved by every re-check; versions, their
 * comparison and the revised .docx below.
 */
export default function ReviseWorkspace({ report }: { report: ReportModel }) {
  const orderId = report.orderId;
  const state = useReviseState(orderId);
  const recheck = useRecheckParagraph(orderId);
  const save = useSaveVersion(orderId);
  const download = useDownloadRevised(orderId);

  const paragraphs = useMemo(() => revisableParagraphs(report), [report]);
  const byIndex = useMemo(() => new Map(paragraphs.map((p) => [p.index, p])), [paragraphs]);
  const lines = useMemo(() => report.text.split('\n'), [report.text]);
  const { flagged, others } = useMemo(() => flaggedFirst(paragraphs), [paragraphs]);
  const signed = useMemo(() => signedFigures(report), [report]);

  const [texts, setTexts] = useState<Map<number, string>>(new Map());
  const [live, setLive] = useState<Map<number, LiveParagraph>>(new Map());
  const [figures, setFigures] = useState<LiveFigures | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const [showOthers, setShowOthers] = useState(false);
  const [serverMs, setServerMs] = useState<number | null>(null);
  /** The text of each paragraph the server has (re-checked and saved). */
  const sent = useRef(new Map<number, string>());
  const history = useRef(new Map<number, string[]>());
  const seq = useRef(0);
  const loaded = useRef(false);
  const editorRef = useRef<HTMLDivElement>(null);

  // The working copy as saved, once.
  useEffect(() => {
    if (loaded.current || !state.data) return;
    loaded.current = true;
    const edits = state.data.draft?.edits ?? [];
    setTexts(new Map(edits.map((e) => [e.index, e.text])));
    for (const e of edits) sent.current.set(e.index, e.text);
    setFigures(state.data.draft?.figures ?? null);
  }, [state.data]);

  const textOf = useCallback((index: number) => texts.get(index) ?? lines[index] ?? '', [texts, lines]);
  const sentOf = (index: number) => sent.current.get(index) ?? lines[index] ?? '';

  const current = open === null ? undefined : textOf(open);
  const { mutate } = recheck;
  // A pause in typing: the open paragraph is re-checked when its text differs from the server's.
  useEffect(() => {
    if (open === null || current === undefined) return;
    if (current === (sent.current.get(open) ?? lines[open] ?? '')) return;
    if (current.length > REVISE_RULES.paragraphMaxChars) return;
    const index = open;
    const text = current;
    const timer = setTimeout(() => {
      const mine = ++seq.current;
      mutate(
        { index, text },
        {
          onSuccess: (result) => {
            const before = sent.current.get(index) ?? lines[index] ?? '';
            history.current.set(index, [...(history.current.get(index) ?? []), before]);
            sent.current.set(index, text);
            if (mine !== seq.current) return;
            setLive((m) => new Map(m).set(index, result.paragraph));
            setFigures(result.figures);
            setServerMs(result.serverMs);
          },
        },
      );
    }, RECHECK_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [open, current, lines, mutate]);

  const openParagraph = (index: number) => {
    setOpen(index);
    setServerMs(null);
    requestAnimationFrame(() => editorRef.current?.scrollIntoView({ block: 'start', behavior: 'smooth' }));
  };
  const setValue = (index: number, text: string) => setTexts((m) => new Map(m).set(index, text));
  const undo = (index: number) => {
    const stack = history.current.get(index) ?? [];
    const previous = stack.pop();
    if (previous === undefined) return;
    // The previous text is re-checked like an edit; its own entry is not pushed again.
    sent.current.set(index, previous);
    setValue(index, previous);
    setLive((m) => {
      const next = new Map(m);
      next.delete(index);
      return next;
    });
    const mine = ++seq.current;
    recheck.mutate(
      { index, text: previous },
      {
        onSuccess: (result) => {
          if (mine !== seq.current) return;
          setLive((m) => new Map(m).set(index, result.paragraph));
          setFigures(result.figures);
          setServerMs(result.serverMs);
        },
      },
    );
  };

  if (state.isError) {
    return (
      <Result
        status="warning"
        title={state.error.message || t.loadFailed}
        extra={<Button onClick={() => state.refetch()}>{t.retry}</Button>}
      />
    );
  }
  if (!state.data) {
    return (
      <div className="ck-center">
        <Spin />
      </div>
    );
  }

  const draftEdits = state.data.draft?.edits ?? [];
  const edited = draftEdits.map((e) => e.index);
  const openParagraphOf = open === null ? undefined : byIndex.get(open);
  const limits = state.data.limits;
  const listItem = (p: (typeof paragraphs)[number]) => {
    const l = live.get(p.index);
    const isEdited = edited.includes(p.index);
    const rate = l && textOf(p.index) === l.text ? l.rate : isEdited ? null : p.rate;
    return (
      <li
        key={p.index}
        className={`rv-item${open === p.index ? ' is-open' : ''}`}
        data-testid="revise-paragraph"
      >
        <button type="button" className="rv-item__button" onClick={() => openParagraph(p.index)}>
          <span className="rv-item__head">
            <span className="muted">{t.paragraphNo(p.index)}</span>
            {rate !== null && (
              <Tag color={rate > 0 ? 'red' : 'green'} className="rv-item__rate">
                {formatPercent(rate)}
              </Tag>
            )}
            {isEdited && <Tag color="blue">{t.edited}</Tag>}
          </span>
          <span className="rv-item__text">
            {textOf(p.index).slice(0, EXCERPT)}
            {textOf(p.index).length > EXCERPT ? '…' : ''}
          </span>
        </button>
      </li>
    );
  };

  return (
    <section className="rv" aria-label={t.title} data-testid="revise-workspace">
      <h3 className="rt-block__title">{t.title}</h3>
      <p className="muted rv-intro">{t.intro}</p>
      <Alert type="info" showIcon message={t.reference} className="rv-alert" />
      <p className="muted rv-limits" data-testid="revise-limits">
        {t.limitsLeft(limits.orderLeft, limits.accountLeft)}
      </p>

      <ReviseFigures signed={signed} current={figures} />

      <div className="rv-block">
        <h4 className="rv-block__title">{t.editedList}</h4>
        {edited.length === 0 ? (
          <p className="muted">{t.editedNone}</p>
        ) : (
          <div className="rv-chips" data-testid="revise-edited">
            {edited.map((i) => (
              <Button key={i} size="small" onClick={() => openParagraph(i)}>
                {t.paragraphNo(i)}
              </Button>
            ))}
          </div>
        )}
      </div>

      <div ref={editorRef}>
        {openParagraphOf && (
          <ParagraphEditor
            report={report}
            paragraph={openParagraphOf}
            value={textOf(openParagraphOf.index)}
            live={live.get(openParagraphOf.index)}
            checking={recheck.isPending || textOf(openParagraphOf.index) !== sentOf(openParagraphOf.index)}
            serverMs={serverMs}
            canUndo={(history.current.get(openParagraphOf.index)?.length ?? 0) > 0}
            onChange={(text) => setValue(openParagraphOf.index, text)}
            onUndo={() => undo(openParagraphOf.index)}
            onRestore={() => setValue(openParagraphOf.index, openParagraphOf.text)}
            onClose={() => setOpen(null)}
          />
        )}
      </div>

      <div className="rv-block">
        <h4 className="rv-block__title">{t.flaggedFirst}</h4>
        <ul className="rv-list">{flagged.map(listItem)}</ul>
        {others.length > 0 && (
          <>
            <Button type="link" onClick={() => setShowOthers((v) => !v)}>
              {showOthers ? t.hideOthers : t.showOthers(others.length)}
            </Button>
            {showOthers && <ul className="rv-list">{others.map(listItem)}</ul>}
          </>
        )}
      </div>

      <VersionsPanel
        lines={lines}
        signed={signed}
        draft={state.data.draft && draftEdits.length > 0 ? state.data.draft : null}
        versions={state.data.versions}
        saving={save.isPending}
        downloading={download.isPending}
        onSave={() => save.mutate()}
        onDownload={(versionNo) => download.mutate({ versionNo, title: report.title })}
      />

      <div className="rv-block rv-download">
        <Button
          icon={<DownloadOutlined />}
          onClick={() => download.mutate({ title: report.title })}
          loading={download.isPending}
          data-testid="revise-download"
        >
          {t.download}
        </Button>
        <span className="muted">{state.data.docxKept ? t.docxKept : t.docxNew}</span>
      </div>
    </section>
  );
}
