import { type Commission, formatDate } from '@kyfw/contracts';
import { Steps } from 'antd';
import '../commission.css';

/** 已提交 → (待报价) → 待支付 → 处理中 → 已完成, as the server reports the commission's progress. */
export function CommissionTimeline({
  commission,
  vertical = false,
}: {
  commission: Commission;
  vertical?: boolean;
}) {
  const steps = commission.timeline;
  const current = Math.max(
    0,
    steps.findIndex((s) => s.state === 'current'),
  );
  const allDone = steps.every((s) => s.state === 'done');
  return (
    <Steps
      size="small"
      orientation={vertical ? 'vertical' : 'horizontal'}
      current={allDone ? steps.length - 1 : current}
      status={commission.status === 'cancelled' ? 'error' : allDone ? 'finish' : 'process'}
      items={steps.map((s) => ({
        title: s.label,
        status: s.state === 'done' ? 'finish' : s.state === 'current' ? 'process' : 'wait',
        description:
          [s.at ? formatDate(s.at, 'YYYY-MM-DD HH:mm') : null, s.note].filter(Boolean).join(' · ') ||
          undefined,
      }))}
    />
  );
}
