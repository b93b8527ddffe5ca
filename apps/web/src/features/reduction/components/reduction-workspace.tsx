import { Alert, Button, Input, Progress, Segmented } from 'antd';
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useIsLoggedIn, useRequireLogin } from '../../auth';
import { PaymentDialog } from '../../payment';
import {
  REDUCTION_PAY_ENDPOINTS,
  useReduction,
  useReductionPrice,
  useReductionResult,
  useSubmitContent,
  useSubmitFile,
} from '../api/reduction';
import { reductionTexts as T } from '../texts';
import type { ReductionKind } from '../types';
import { ReductionResultView } from './reduction-result';
import '../reduction.css';

/** Characters as the server counts them for the price (whitespace not counted). */
const countChars = (s: string) => Array.from(s.replace(/\s+/g, '')).length;

/**
 * The workspace of /reduction and /reduction/aigc: paste text -> order -> pay -> progress ->
 * before/after and download. `?id=` reopens one of the user's reductions.
 */
export function ReductionWorkspace({ kind }: { kind: ReductionKind }) {
  const [params, setParams] = useSearchParams();
  const id = params.get('id');
  const loggedIn = useIsLoggedIn();
  const requireLogin = useRequireLogin();
  const titleId = useId();
  const textId = useId();
  const [title, setTitle] = useState('');
  const [text, setText] = useState('');
  // ?pay=1: opened from a report's 一键降重, the order waits for its payment.
  const [payOpen, setPayOpen] = useState(() => params.get('pay') === '1');
  const [mode, setMode] = useState<'text' | 'file'>('text');
  const [file, setFile] = useState<File | null>(null);
  const fileId = useId();
  const submitFile = useSubmitFile();
  const chars = countChars(text);
  // Text: the amount for the characters typed. Upload: the unit price (chars 0), before the dialog.
  const price = useReductionPrice(
    kind,
    mode === 'file' ? 0 : chars,
    loggedIn && (mode === 'file' || chars > 0),
  );
  const submit = useSubmitContent();
  const view = useReduction(id);
  const r = view.data;
  const result = useReductionResult(id, r?.status === 'done');

  if (id && r) {
    return (
      <div className="rd">
        <p>
          {r.kindName} · {r.title} · <span data-testid="reduction-status">{r.statusText}</span>
        </p>
        {r.status === 'ordered' && (
          <section className="card-surface rd__card">
            <h3 className="rd__h">{T.waitingPay}</h3>
            <p>
              {r.title} · {T.chars(r.chars)}
            </p>
            <Button type="primary" onClick={() => setPayOpen(true)}>
              {T.pay}
            </Button>
          </section>
        )}
        {r.status === 'rewriting' && (
          <section className="card-surface rd__card" aria-label={T.progressTitle}>
            <h3 className="rd__h">{T.progressTitle}</h3>
            {r.queueAhead == null ? (
              <Progress percent={r.progress} data-testid="reduction-progress" />
            ) : (
              // Waiting for a worker: its place in the queue, not a percentage.
              <Alert type="info" showIcon title={r.statusText} data-testid="reduction-queued" />
            )}
          </section>
        )}
        {r.status === 'failed' && <Alert type="error" showIcon message={r.statusText || T.failed} />}
        {r.status === 'done' && result.data && <ReductionResultView result={result.data} />}
        <Button onClick={() => setParams({})}>{T.again}</Button>
        <PaymentDialog
          open={payOpen && r.status === 'ordered'}
          orderId={r.orderId}
          title={T.payTitle[r.kind]}
          goodsName={`${r.kindName} · ${r.title}`}
          onClose={() => setPayOpen(false)}
          onPaid={() => void view.refetch()}
          {...REDUCTION_PAY_ENDPOINTS}
        />
      </div>
    );
  }

  const onSubmitted = (s: { reductionId: string }) => {
    setParams({ id: s.reductionId });
    setPayOpen(true);
  };
  const onSubmit = () => {
    if (!loggedIn) {
      requireLogin();
      return;
    }
    if (mode === 'file') {
      if (file)
        submitFile.mutate({ kind, title: title.trim() || undefined, file }, { onSuccess: onSubmitted });
      return;
    }
    submit.mutate({ kind, title: title.trim() || undefined, text }, { onSuccess: onSubmitted });
  };

  return (
    <div className="rd">
      <p className="muted">{T.intro[kind]}</p>
      <Segmented
        value={mode}
        onChange={(v) => setMode(v as 'text' | 'file')}
        options={[
          { label: T.modes.text, value: 'text' },
          { label: T.modes.file, value: 'file' },
        ]}
      />
      <div className="rd__field">
        <label htmlFor={titleId}>{T.title}</label>
        <Input
          id={titleId}
          value={title}
          maxLength={200}
          placeholder={T.titlePlaceholder}
          onChange={(e) => setTitle(e.target.value)}
        />
      </div>
      {mode === 'text' ? (
        <>
          <div className="rd__field">
            <label htmlFor={textId}>{T.text}</label>
            <Input.TextArea
              id={textId}
              value={text}
              autoSize={{ minRows: 10, maxRows: 24 }}
              placeholder={T.textPlaceholder}
              onChange={(e) => setText(e.target.value)}
              data-testid="reduction-text"
            />
          </div>
          <div className="rd__row">
            <span>{T.chars(chars)}</span>
            {price.data && (
              <span className="muted">{T.unitPrice(price.data.unitPrice, price.data.unit)}</span>
            )}
            {price.data?.amountFen != null && (
              <strong>{T.price((price.data.amountFen / 100).toFixed(2))}</strong>
            )}
          </div>
        </>
      ) : (
        <div className="rd__field">
          <label htmlFor={fileId}>{T.file}</label>
          <input
            id={fileId}
            type="file"
            accept=".docx,.doc,.pdf,.txt"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
          <span className="muted">{T.fileHint}</span>
          {price.data && (
            <strong className="rd__file-price" data-testid="reduction-file-price">
              {T.filePrice(price.data.unitPrice, price.data.unit)}
            </strong>
          )}
        </div>
      )}
      <Button
        type="primary"
        loading={submit.isPending || submitFile.isPending}
        disabled={mode === 'file' && !file}
        onClick={onSubmit}
      >
        {mode === 'file' ? T.submitFile : T.submit}
      </Button>
    </div>
  );
}
