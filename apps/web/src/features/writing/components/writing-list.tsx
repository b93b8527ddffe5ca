import { Button, Empty, Progress } from 'antd';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { useIsLoggedIn } from '../../auth';
import { useDownloadWriting, useWritingList } from '../api/writing-steps';
import { writingTexts as T } from '../texts';
import type { WritingView } from '../types';
import '../writing.css';

const AREA_ROUTE = {
  dissertation: 'ai-dissertation',
  proposal: 'ai-proposal',
  assignment: 'ai-assignment',
  journalsReviewed: 'ai-journalsReviewed',
} as const;

/** 我的写作 in 写作订单: every writing with its status, progress and download. */
export function WritingList() {
  const list = useWritingList(useIsLoggedIn());
  const download = useDownloadWriting();
  const items = list.data?.list ?? [];
  return (
    <section className="card-surface wr__card">
      <h3 className="wr__h">{T.listTitle}</h3>
      {items.length === 0 && <Empty description={T.listEmpty} />}
      {items.map((w: WritingView) => (
        <div key={w.writingId} className="wr-list__row" data-testid="writing-row">
          <strong>{w.title ?? w.topic}</strong>
          <span className="muted">{w.areaName}</span>
          <span>{w.statusText}</span>
          {w.status === 'writing' && w.queueAhead == null && (
            <Progress percent={w.progress} size="small" style={{ width: 120 }} />
          )}
          <Link to={`${paths[AREA_ROUTE[w.area]]}?id=${w.writingId}`}>{T.open}</Link>
          {w.status === 'done' && (
            <Button
              size="small"
              onClick={() => download.mutate({ writingId: w.writingId, title: w.title ?? w.topic })}
            >
              {T.download}
            </Button>
          )}
        </div>
      ))}
    </section>
  );
}
