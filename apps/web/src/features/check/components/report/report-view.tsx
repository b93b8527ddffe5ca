import { EditOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { isAigcFigureShown } from '@kyfw/contracts';
import { Button, Spin } from 'antd';
import { lazy, Suspense, useCallback, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../../config/paths';
import { ReduceReportButton } from '../../../reduction';
import { type AnyReport, isAigcReport } from '../../api/get-report';
import { buildMarkedText } from '../../lib/segments';
import { checkTexts as t } from '../../texts';
import type { ReportModel } from '../../types';
import { AigcReportView } from './aigc-report-view';
import { AigcSectionView } from './aigc-section';
import { DownloadButtons } from './download-buttons';
import { MarkedTextView } from './marked-text';
import { MatchPanel } from './match-panel';
import { ReportHead, ReportNotices } from './report-header';
import { ReportFiguresView, SectionTable, SourceList } from './report-summary';
import '../../check.css';

/** The report editor (修改并实时复检), loaded when opened: the report itself does not carry it. */
const ReviseWorkspace = lazy(() => import('../revise/revise-workspace'));

/** The verification page with this report's number and code filled in. */
export function verifyPathOf(report: { reportNo: string; verificationCode: string }): string {
  const query = new URLSearchParams({ reportNo: report.reportNo, code: report.verificationCode });
  return `${paths['check-verify']}?${query.toString()}`;
}

/**
 * The web report: number, time and verification code; the notice that it is program output; the
 * headline figures; the chapter table; the similar sources; and the full text with its marks, the
 * source passage of the selected mark beside it. The marked text is computed once per report.
 */
export function ReportView({ report }: { report: AnyReport }) {
  return isAigcReport(report) ? <AigcReportView report={report} /> : <SimilarityReportView report={report} />;
}

function SimilarityReportView({ report }: { report: ReportModel }) {
  const marked = useMemo(
    () => buildMarkedText(report.text, report.matches, report.sections),
    [report.text, report.matches, report.sections],
  );
  const sources = useMemo(() => new Map(report.sources.map((s) => [s.no, s])), [report.sources]);
  const [active, setActive] = useState<number | null>(null);
  const [revising, setRevising] = useState(false);
  const textRef = useRef<HTMLDivElement>(null);

  const scrollToMatch = useCallback((index: number) => {
    // After the active class is rendered.
    requestAnimationFrame(() => {
      const el = textRef.current?.querySelector<HTMLElement>(`[data-m="${index}"]`);
      el?.scrollIntoView({ block: 'center', behavior: 'smooth' });
      el?.focus({ preventScroll: true });
    });
  }, []);

  const selectAndShow = useCallback(
    (index: number) => {
      setActive(index);
      scrollToMatch(index);
    },
    [scrollToMatch],
  );

  const jumpToSection = useCallback((section: number) => {
    const el = textRef.current?.querySelector<HTMLElement>(`[data-section="${section}"]`);
    el?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }, []);

  const openSource = useCallback(
    (sourceNo: number) => {
      const first = marked.order.find((i) => report.matches[i]?.sourceNo === sourceNo);
      if (first !== undefined) selectAndShow(first);
    },
    [marked.order, report.matches, selectAndShow],
  );

  return (
    <article className="report" data-testid="check-report">
      <ReportHead report={report} title={t.reportTitle} />

      <ReportNotices notes={report.notes} fallback={t.disclaimer} />

      <div className="report__actions">
        <DownloadButtons orderId={report.orderId} title={report.title} />
        <Button
          type={revising ? 'default' : 'primary'}
          icon={<EditOutlined />}
          onClick={() => setRevising((v) => !v)}
          aria-expanded={revising}
          data-testid="revise-open"
        >
          {revising ? t.revise.close : t.revise.open}
        </Button>
        {report.matches.length > 0 && <ReduceReportButton orderId={report.orderId} />}
        <Link to={verifyPathOf(report)} className="report__verify">
          <SafetyCertificateOutlined /> {t.verifyLink}
        </Link>
        {report.aigc && (
          <a href="#aigc-section" className="report__verify" data-testid="aigc-section-link">
            {t.addon.sectionTitle}
            {report.aigc.status === 'done'
              ? `：${isAigcFigureShown(report.aigc.figures) ? report.aigc.figures.score.toFixed(1) : report.aigc.verdict}`
              : `：${t.addon.sectionFailed}`}
          </a>
        )}
      </div>

      {revising && (
        <Suspense
          fallback={
            <div className="ck-center">
              <Spin />
            </div>
          }
        >
          <ReviseWorkspace report={report} />
        </Suspense>
      )}

      <ReportFiguresView figures={report.figures} />
      <SectionTable sections={report.sections} onJump={jumpToSection} />
      <SourceList sources={report.sources} onOpen={openSource} />

      <section className="rt-block" aria-label={t.fullTextTitle}>
        <h3 className="rt-block__title">
          {t.fullTextTitle}
          <span className="rt-block__hint muted">{t.fullTextHint}</span>
        </h3>
        <div className="rt-split">
          <div ref={textRef} className="rt-split__text">
            <MarkedTextView marked={marked} text={report.text} active={active} onSelect={setActive} />
          </div>
          <div className="rt-split__panel">
            <MatchPanel
              report={report}
              sources={sources}
              order={marked.order}
              active={active}
              onSelect={selectAndShow}
              onClose={() => setActive(null)}
            />
          </div>
        </div>
      </section>

      {report.aigc && (
        <div id="aigc-section">
          <AigcSectionView section={report.aigc} text={report.text} />
        </div>
      )}
    </article>
  );
}
