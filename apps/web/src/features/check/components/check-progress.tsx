import { CheckCircleFilled, LoadingOutlined } from '@ant-design/icons';
import { Progress, Steps } from 'antd';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import type { ProgressView } from '../lib/progress';
import { checkTexts as t } from '../texts';
import type { CheckKind } from '../types';

/** 检测进度: the four steps, the percentage and what is happening now; the check runs on the server. */
export function CheckProgress({
  view,
  free,
  kind = 'similarity',
}: {
  view: ProgressView;
  free: boolean;
  kind?: CheckKind;
}) {
  const running = view.phase !== 'done' && view.phase !== 'failed';
  if (view.phase === 'done') {
    return (
      <section className="ck-progress ck-progress--done" data-testid="check-progress" data-phase="done">
        <CheckCircleFilled /> <strong>{t.doneStage}</strong>
        <span className="muted">{t.doneHint}</span>
      </section>
    );
  }
  const middle = kind === 'aigc' ? t.aigc.stepDetect : t.stepCompare;
  const items = [free ? t.freeStart : t.stepPay, t.stepParse, middle, t.stepReport].map((title, i) => ({
    title,
    status:
      view.phase === 'failed' && i === view.step
        ? ('error' as const)
        : i < view.step
          ? ('finish' as const)
          : i === view.step
            ? ('process' as const)
            : ('wait' as const),
    icon: running && i === view.step ? <LoadingOutlined /> : undefined,
  }));
  return (
    <section
      className="ck-progress"
      aria-label={t.progressTitle}
      data-testid="check-progress"
      data-phase={view.phase}
    >
      <h3 className="ck-step-title">{t.progressTitle}</h3>
      <Steps items={items} current={Math.min(view.step, 3)} size="small" className="ck-progress__steps" />
      <Progress
        percent={view.percent}
        status={view.phase === 'failed' ? 'exception' : 'active'}
        className="ck-progress__bar"
      />
      {/* A failure's reason and the way forward are shown below the panel. */}
      {view.phase !== 'failed' && (
        <p className="ck-progress__label" role="status" aria-live="polite">
          {view.label}
        </p>
      )}
      {running && (
        <p className="ck-progress__hint muted">
          {t.leaveHint} <Link to={paths['user-order-check']}>{t.myChecks}</Link>
        </p>
      )}
    </section>
  );
}
