import { WRITING_LIMITS } from '@kyfw/contracts';
import { Alert, Button, Input, InputNumber, Progress, Radio, Select, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../../config/paths';
import { setUnsavedInput } from '../../../stores/unsaved-store';
import { useIsLoggedIn, useRequireLogin, useSession } from '../../auth';
import { PaymentDialog } from '../../payment';
import { WRITING_PAY_ENDPOINTS } from '../api/keys';
import { useReadTaskBook } from '../api/read-task-book';
import { useSaveDraft } from '../api/save-draft';
import { useSuggestTitles } from '../api/suggest-titles';
import {
  useDownloadWriting,
  useFreeOutlines,
  useGenerateAbstract,
  useGenerateOutline,
  useSaveOutline,
  useSubmitOrder,
  useWriting,
} from '../api/writing-steps';
import { DEGREES, writingTexts as T } from '../texts';
import type { OutlineItem, WritingAreaId, WritingView } from '../types';
import { OutlineEditor } from './outline-editor';
import { ReferenceSearch } from './reference-search';
import { ReviseSection } from './revise-section';
import '../writing.css';

/**
 * One AI writing area's workspace: topic and titles -> outline -> abstract and order -> progress and
 * .docx. The writing's id is in `?id=`, so a reload or a link from 写作订单 resumes it.
 */
export function WritingWorkspace({ area }: { area: WritingAreaId }) {
  const [params, setParams] = useSearchParams();
  const writingId = params.get('id');
  const checked = useSession((s) => s.checked);
  const loggedIn = useIsLoggedIn();
  useEffect(() => () => setUnsavedInput(false), []);

  if (writingId && !checked) return <Spin />;
  return (
    <div className="wr">
      {writingId && loggedIn ? (
        <WritingSteps key={writingId} writingId={writingId} onNew={() => setParams({})} />
      ) : (
        <StartForm area={area} onSaved={(id) => setParams({ id })} />
      )}
    </div>
  );
}

function StartForm({ area, onSaved }: { area: WritingAreaId; onSaved: (writingId: string) => void }) {
  const requireLogin = useRequireLogin();
  const [topic, setTopic] = useState('');
  const [discipline, setDiscipline] = useState('');
  const [degree, setDegree] = useState<(typeof DEGREES)[number]>('本科');
  const [targetWords, setTargetWords] = useState(8000);
  const [requirements, setRequirements] = useState('');
  const [title, setTitle] = useState('');
  const titles = useSuggestTitles();
  const taskBook = useReadTaskBook();
  const save = useSaveDraft();
  const outline = useGenerateOutline();
  const free = useFreeOutlines(useIsLoggedIn());

  useEffect(() => {
    setUnsavedInput(Boolean(topic.trim() || title.trim() || requirements.trim()));
  }, [topic, title, requirements]);

  const submit = () =>
    requireLogin(async () => {
      const view = await save
        .mutateAsync({ area, topic, title, targetWords, discipline, degree, requirements })
        .catch(() => null);
      if (!view) return;
      setUnsavedInput(false);
      if ((free.data?.free ?? 0) > 0) await outline.mutateAsync(view.writingId).catch(() => null);
      onSaved(view.writingId);
    });

  return (
    <section className="card-surface wr__card">
      <h3 className="wr__h">1. {T.steps[0]}</h3>
      <div className="wr__field">
        <span>{T.topic}</span>
        <Input
          aria-label={T.topic}
          value={topic}
          maxLength={WRITING_LIMITS.topic}
          placeholder={T.topicPlaceholder}
          onChange={(e) => setTopic(e.target.value)}
        />
      </div>
      <div className="wr__row">
        <div className="wr__field">
          <span>{T.discipline}</span>
          <Input
            aria-label={T.discipline}
            value={discipline}
            maxLength={WRITING_LIMITS.discipline}
            placeholder={T.disciplinePlaceholder}
            onChange={(e) => setDiscipline(e.target.value)}
          />
        </div>
        <div className="wr__field">
          <span>{T.degree}</span>
          <Select
            aria-label={T.degree}
            value={degree}
            onChange={setDegree}
            options={DEGREES.map((d) => ({ value: d, label: d }))}
          />
        </div>
        <div className="wr__field">
          <span>{T.targetWords}</span>
          <InputNumber
            aria-label={T.targetWords}
            min={WRITING_LIMITS.targetWords.min}
            max={WRITING_LIMITS.targetWords.max}
            step={1000}
            value={targetWords}
            onChange={(v) => setTargetWords(Number(v ?? 8000))}
          />
        </div>
      </div>
      <div className="wr__field">
        <span>{T.requirements}</span>
        <Input.TextArea
          aria-label={T.requirements}
          value={requirements}
          maxLength={WRITING_LIMITS.requirements}
          rows={2}
          placeholder={T.requirementsPlaceholder}
          onChange={(e) => setRequirements(e.target.value)}
        />
      </div>
      <div className="wr__field">
        <span>{T.taskBook}</span>
        <label className="wr__upload">
          <span className="wr__upload-button">{T.taskBookChoose}</span>
          <input
            className="wr__upload-input"
            aria-label={T.taskBook}
            type="file"
            accept=".docx,.doc,.pdf,.txt"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (!file) return;
              requireLogin(() =>
                taskBook.mutate(file, { onSuccess: (r) => setRequirements(r.requirements) }),
              );
            }}
          />
        </label>
        <span className="muted">{taskBook.isPending ? T.taskBookReading : T.taskBookHint}</span>
      </div>
      <Button
        onClick={() => requireLogin(() => titles.mutate({ topic, area, discipline }))}
        loading={titles.isPending}
      >
        {T.suggestTitles}
      </Button>
      {titles.data && (
        <>
          {titles.data.sandbox && <SandboxNotice />}
          <Radio.Group className="wr__titles" value={title} onChange={(e) => setTitle(e.target.value)}>
            {titles.data.titles.map((s) => (
              <Radio key={s.title} value={s.title}>
                <strong>{s.title}</strong>
                <span className="muted"> — {s.reason}</span>
              </Radio>
            ))}
          </Radio.Group>
        </>
      )}
      <div className="wr__field">
        <span>{T.titleLabel}</span>
        <Input
          aria-label={T.titleLabel}
          value={title}
          maxLength={WRITING_LIMITS.title}
          placeholder={T.titlePlaceholder}
          onChange={(e) => setTitle(e.target.value)}
        />
      </div>
      {free.data && <p className="muted">{T.freeOutlines(free.data.free)}</p>}
      <Button type="primary" onClick={submit} loading={save.isPending || outline.isPending}>
        {T.saveAndOutline}
      </Button>
    </section>
  );
}

function WritingSteps({ writingId, onNew }: { writingId: string; onNew: () => void }) {
  const writing = useWriting(writingId);
  if (!writing.data)
    return writing.isError ? <Alert type="error" message={writing.error.message} /> : <Spin />;
  const w = writing.data;
  return (
    <>
      {w.sandbox && <SandboxNotice />}
      <section className="card-surface wr__card">
        <h3 className="wr__h">{w.title}</h3>
        <p className="muted">
          {w.areaName} · {w.degree} · {w.targetWords} 字 ·{' '}
          <span data-testid="writing-status">{w.statusText}</span>
        </p>
      </section>
      {w.status === 'draft' && <DraftSteps w={w} />}
      {w.status === 'draft' && <ReferenceSearch w={w} />}
      {w.status === 'ordered' && <PayStep w={w} />}
      {(w.status === 'writing' || w.status === 'done' || w.status === 'failed') && <ResultStep w={w} />}
      {w.status === 'done' && <ReviseSection w={w} />}
      <p>
        <Button onClick={onNew}>{T.newWriting}</Button>{' '}
        <Link to={paths['user-order-write']}>{T.myOrders}</Link>
      </p>
    </>
  );
}

function DraftSteps({ w }: { w: WritingView }) {
  const [outline, setOutline] = useState<OutlineItem[] | null>(w.outline);
  const [dirty, setDirty] = useState(false);
  const generate = useGenerateOutline();
  const save = useSaveOutline();
  const abstract = useGenerateAbstract();
  const submit = useSubmitOrder();
  const free = useFreeOutlines(true);
  useEffect(() => {
    if (!dirty) setOutline(w.outline);
  }, [w.outline, dirty]);
  useEffect(() => setUnsavedInput(dirty), [dirty]);
  const total = (outline ?? []).reduce((s, c) => s + c.wordCount, 0);

  return (
    <>
      <section className="card-surface wr__card">
        <h3 className="wr__h">2. {T.outlineTitle}</h3>
        {outline ? (
          <>
            <p className="muted">{T.outlineHint}</p>
            <OutlineEditor
              value={outline}
              onChange={(next) => {
                setOutline(next);
                setDirty(true);
              }}
            />
            <p className={Math.abs(total - w.targetWords) > w.targetWords * 0.1 ? 'wr__warn' : 'muted'}>
              {T.outlineTotal(total, w.targetWords)}
            </p>
            <Button
              type="primary"
              loading={save.isPending}
              onClick={() =>
                save.mutate({ writingId: w.writingId, outline }, { onSuccess: () => setDirty(false) })
              }
            >
              {T.saveOutline}
            </Button>{' '}
            <Button
              loading={generate.isPending}
              onClick={() => generate.mutate(w.writingId, { onSuccess: () => setDirty(false) })}
            >
              {T.regenerateOutline}
            </Button>
          </>
        ) : (
          <>
            {free.data && <p className="muted">{T.freeOutlines(free.data.free)}</p>}
            {(free.data?.free ?? 0) > 0 && (
              <Button
                type="primary"
                loading={generate.isPending}
                onClick={() => generate.mutate(w.writingId)}
              >
                {T.saveAndOutline}
              </Button>
            )}
          </>
        )}
      </section>
      <section className="card-surface wr__card">
        <h3 className="wr__h">3. {T.abstractTitle}</h3>
        {w.abstract ? (
          <div className="wr__abstract">
            <p>{w.abstract.zh}</p>
            <p className="muted">
              {T.keywords}
              {w.abstract.keywordsZh.join('；')}
            </p>
            <p lang="en">{w.abstract.en}</p>
          </div>
        ) : null}
        <Button
          disabled={!w.outline || dirty}
          loading={abstract.isPending}
          onClick={() => abstract.mutate(w.writingId)}
        >
          {T.makeAbstract}
        </Button>
        <h3 className="wr__h">{T.orderTitle}</h3>
        <p className="muted">{T.orderHint}</p>
        <Button
          type="primary"
          disabled={dirty}
          loading={submit.isPending}
          onClick={() => submit.mutate({ writingId: w.writingId, withoutOutline: !w.outline })}
        >
          {w.outline ? T.submitOrder : T.orderWithoutOutline}
        </Button>
      </section>
    </>
  );
}

function PayStep({ w }: { w: WritingView }) {
  const [open, setOpen] = useState(true);
  const refresh = useWriting(w.writingId);
  return (
    <section className="card-surface wr__card">
      <h3 className="wr__h">{T.orderTitle}</h3>
      <p className="muted">{T.sources(w.sources.length)}</p>
      <Button type="primary" onClick={() => setOpen(true)}>
        {T.submitOrder}
      </Button>
      <PaymentDialog
        open={open}
        orderId={w.orderId}
        title={T.payTitle}
        goodsName={`${w.areaName} · ${w.title}`}
        onClose={() => setOpen(false)}
        onPaid={() => void refresh.refetch()}
        {...WRITING_PAY_ENDPOINTS}
      />
    </section>
  );
}

function ResultStep({ w }: { w: WritingView }) {
  const download = useDownloadWriting();
  return (
    <section className="card-surface wr__card">
      <h3 className="wr__h">4. {T.progressTitle}</h3>
      {w.queueAhead == null ? (
        <Progress
          percent={w.progress}
          status={w.status === 'failed' ? 'exception' : w.status === 'done' ? 'success' : 'active'}
        />
      ) : (
        // Waiting for a worker: its place in the queue, not a percentage.
        <Alert type="info" showIcon title={w.statusText} data-testid="writing-queued" />
      )}
      <p className="muted">
        {T.writing(w.sectionsWritten, w.wordsWritten)} · {T.sources(w.sources.length)}
      </p>
      {w.removedCitations > 0 && <p className="muted">{T.removedCitations(w.removedCitations)}</p>}
      {w.status === 'failed' && (
        <Alert
          type="error"
          data-testid="writing-failed"
          message={w.statusText}
          description={w.refundState ? T.failedHint[w.refundState] : undefined}
        />
      )}
      {w.status === 'done' && (
        <>
          <Button
            type="primary"
            loading={download.isPending}
            onClick={() => download.mutate({ writingId: w.writingId, title: w.title ?? w.topic })}
          >
            {T.download}
          </Button>
          <p className="muted">{T.downloadHint}</p>
        </>
      )}
    </section>
  );
}

/** Shown whenever the server answers from the LLM sandbox: its texts are templates, not AI writing. */
function SandboxNotice() {
  return (
    <Alert
      className="wr__sandbox"
      type="warning"
      showIcon
      message={T.sandboxNotice}
      data-testid="writing-sandbox-notice"
    />
  );
}
