import { PageHero } from '../../components/page/page-hero';
import { checkTexts, VerifyPanel } from '../../features/check';

/** /check/verify: anyone with a report number and its code confirms the report is genuine. */
export default function CheckVerifyPage() {
  return (
    <div className="service-page">
      <PageHero
        eyebrow="科研服务网 · 论文查重"
        title={checkTexts.verifyTitle}
        description={checkTexts.verifyLead}
      />
      <div className="container service-page__body">
        <section className="service-page__workspace card-surface" aria-label={checkTexts.verifyTitle}>
          <VerifyPanel />
        </section>
      </div>
    </div>
  );
}
