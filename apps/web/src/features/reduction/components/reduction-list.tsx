import { Button, Empty, Popconfirm, Progress } from 'antd';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { useIsLoggedIn } from '../../auth';
import { useDeleteReduction, useDownloadReduction, useReductionList } from '../api/reduction';
import { reductionTexts as T } from '../texts';

/** 我的降重 in 降重订单: every reduction with its status, progress, result, download and delete. */
export function ReductionList() {
  const list = useReductionList(useIsLoggedIn());
  const download = useDownloadReduction();
  const del = useDeleteReduction();
  const items = list.data?.list ?? [];
  return (
    <section className="card-surface rd__card">
      <h3 className="rd__h">{T.listTitle}</h3>
      {items.length === 0 && <Empty description={T.listEmpty} />}
      {items.map((r) => (
        <div key={r.reductionId} className="rd__row" data-testid="reduction-row">
          <strong>{r.title}</strong>
          <span className="muted">
            {r.kindName} · {T.chars(r.chars)}
          </span>
          <span>{r.statusText}</span>
          {r.status === 'done' && r.refund && <span className="muted">{r.refund.text}</span>}
          {r.status === 'rewriting' && r.queueAhead == null && (
            <Progress percent={r.progress} size="small" style={{ width: 120 }} />
          )}
          <Link to={`${paths[r.kind === 'reduction' ? 'reduction' : 'reduction-aigc']}?id=${r.reductionId}`}>
            {T.open}
          </Link>
          {r.status === 'done' && (
            <Button
              size="small"
              onClick={() => download.mutate({ reductionId: r.reductionId, title: r.title })}
            >
              {T.download}
            </Button>
          )}
          {r.status !== 'rewriting' && (
            <Popconfirm title={T.delConfirm} onConfirm={() => del.mutate(r.reductionId)}>
              <Button size="small" danger>
                {T.del}
              </Button>
            </Popconfirm>
          )}
        </div>
      ))}
    </section>
  );
}
