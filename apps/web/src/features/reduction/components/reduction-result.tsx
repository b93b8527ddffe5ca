import { Alert, Button, Tag } from 'antd';
import { useDownloadReduction } from '../api/reduction';
import { measureVerdict } from '../lib/verdict';
import { reductionTexts as T } from '../texts';
import type { ReductionItem, ReductionResult } from '../types';
import { diffChars } from './diff';

const percent = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);
const index = (v: number | null) => (v === null ? '—' : v.toFixed(1));

/** Before/after side by side: removed characters struck through on the left, added ones marked on the right. */
function Pair({ item }: { item: ReductionItem }) {
  const parts = item.outcome === 'rewritten' ? diffChars(item.before, item.after) : null;
  const tag =
    item.outcome === 'rewritten' ? (
      <Tag color="green">{T.rewritten}</Tag>
    ) : item.outcome === 'kept' ? (
      <Tag color="orange">{T.kept}</Tag>
    ) : (
      <Tag>{T.unchanged}</Tag>
    );
  return (
    <div className="rd-pair" data-testid="reduction-pair" data-outcome={item.outcome}>
      <div className="rd-pair__side">
        {parts
          ? parts.map((p) =>
              p.kind === 'added' ? null : p.kind === 'removed' ? (
                <del key={p.at}>{p.text}</del>
              ) : (
                <span key={p.at}>{p.text}</span>
              ),
            )
          : item.before}
      </div>
      <div className="rd-pair__side">
        {tag}
        {parts
          ? parts.map((p) =>
              p.kind === 'removed' ? null : p.kind === 'added' ? (
                <ins key={p.at}>{p.text}</ins>
              ) : (
                <span key={p.at}>{p.text}</span>
              ),
            )
          : item.after}
        {item.note && (
          <div className="muted rd-pair__note" data-testid="reduction-note">
            {item.note}
          </div>
        )}
      </div>
    </div>
  );
}

export function ReductionResultView({ result }: { result: ReductionResult }) {
  const download = useDownloadReduction();
  const verdict = measureVerdict(result);
  return (
    <section className="card-surface rd__card" aria-label={T.resultTitle}>
      <h3 className="rd__h">
        {T.resultTitle} · {result.kindName} · {result.title}
      </h3>
      {result.sandboxNote && <Alert type="warning" showIcon message={result.sandboxNote} />}
      <div className="rd-measures" data-testid="reduction-measures">
        <div>
          <div className="muted">{T.rate}</div>
          <strong>
            {percent(result.rateBefore)} {T.arrow} {percent(result.rateAfter)}
          </strong>
        </div>
        <div>
          <div className="muted">{T.aigc}</div>
          <strong>
            {index(result.aigcBefore)} {T.arrow} {index(result.aigcAfter)}
          </strong>
        </div>
      </div>
      {result.refund && (
        <Alert
          type={result.refund.state === 'failed' ? 'warning' : 'info'}
          showIcon
          message={result.refund.text}
          data-testid="reduction-refund"
        />
      )}
      {verdict && (
        <Alert type={verdict.tone} showIcon message={verdict.text} data-testid="reduction-verdict" />
      )}
      <p className="muted">{T.measuresNote}</p>
      <p className="muted">{T.checkLimits}</p>
      <Button
        type="primary"
        loading={download.isPending}
        onClick={() => download.mutate({ reductionId: result.reductionId, title: result.title })}
      >
        {T.download}
      </Button>
      <div className="rd-pair rd-pair--head">
        <strong>{T.before}</strong>
        <strong>{T.after}</strong>
      </div>
      {result.items.map((item) => (
        <Pair key={item.index} item={item} />
      ))}
    </section>
  );
}
