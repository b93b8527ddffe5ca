import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { checkTexts } from '../../texts';
import type { AigcReportModel } from '../../types';
import { AigcFigures, AigcShadedText } from './aigc-section';
import { DownloadButtons } from './download-buttons';
import { ReportHead, ReportNotices } from './report-header';
import { verifyPathOf } from './report-view';

const a = checkTexts.aigc;

/**
 * The AIGC detection report: number, time and verification code; the notice that every figure is a
 * reference value; the document's index (or 未见明显AI生成特征) with its reasons; the full text with
 * flagged paragraphs shaded by their index, the index and reasons on hover; the PDF.
 */
export function AigcReportView({ report }: { report: AigcReportModel }) {
  return (
    <article className="report" data-testid="aigc-report">
      <ReportHead report={report} title={a.reportTitle} />

      <ReportNotices notes={report.notes} fallback={a.disclaimerTitle} />

      <div className="report__actions">
        <DownloadButtons orderId={report.orderId} title={report.title} formats={['pdf']} />
        <Link to={verifyPathOf(report)} className="report__verify">
          <SafetyCertificateOutlined /> {a.verify}
        </Link>
      </div>

      <AigcFigures result={report} />

      <section className="rt-block" aria-label={a.textTitle}>
        <h3 className="rt-block__title">
          {a.textTitle}
          <span className="rt-block__hint muted">{a.legend}</span>
        </h3>
        <AigcShadedText text={report.text} paragraphs={report.paragraphs} />
      </section>
    </article>
  );
}
