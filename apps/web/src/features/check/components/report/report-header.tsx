import type { ReportHeader } from '@kyfw/contracts';
import { Alert } from 'antd';
import { formatTime } from '../../lib/format';
import { checkTexts as t } from '../../texts';

/** The head of every report (similarity and AIGC): its title, the paper, number, code, time and goods. */
export function ReportHead({ report, title }: { report: ReportHeader; title: string }) {
  return (
    <header className="report__head">
      <div>
        <h2 className="report__title">{title}</h2>
        <p className="report__paper">
          《{report.title}》 <span className="muted">{report.author}</span>
        </p>
      </div>
      <dl className="report__meta">
        <div>
          <dt>{t.reportNo}</dt>
          <dd data-testid="report-no">{report.reportNo}</dd>
        </div>
        <div>
          <dt>{t.verifyCode}</dt>
          <dd>{report.verificationCode}</dd>
        </div>
        <div>
          <dt>{t.checkedAt}</dt>
          <dd>{formatTime(report.checkedAt, true)}</dd>
        </div>
        <div>
          <dt>{t.paperGoods}</dt>
          <dd>{report.goodsName}</dd>
        </div>
      </dl>
    </header>
  );
}

/** The report's notices: the disclaimer (notes[0], or `fallback`), then extraction warnings. */
export function ReportNotices({ notes, fallback }: { notes: string[]; fallback: string }) {
  const others = notes.slice(1);
  return (
    <>
      <Alert type="warning" showIcon className="report__notice" title={notes[0] ?? fallback} />
      {others.length > 0 && (
        <Alert
          type="info"
          showIcon
          className="report__notice"
          title={t.warningsTitle}
          description={
            <ul className="report__notes">
              {others.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          }
        />
      )}
    </>
  );
}
