import {
  CheckCircleFilled,
  CloudDownloadOutlined,
  EditOutlined,
  ExperimentOutlined,
  FileProtectOutlined,
  FileSearchOutlined,
  FormOutlined,
  ReadOutlined,
  RobotOutlined,
  SafetyCertificateOutlined,
} from '@ant-design/icons';
import { Button } from 'antd';
import { type ReactNode, Suspense } from 'react';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import type { ServiceInfo } from '../../config/services';
import { services } from '../../config/services';
import { useIsLoggedIn } from '../../features/auth';
import { FreeBenefits, homeTexts as t } from '../../features/home';
import { CasePhotos, LatestNews } from '../../features/news';
import { uiActions } from '../../stores/ui-store';

const cards: readonly { service: ServiceInfo; icon: ReactNode; tone: string }[] = [
  { service: services.check, icon: <FileSearchOutlined />, tone: 'blue' },
  { service: services.reduction, icon: <EditOutlined />, tone: 'teal' },
  { service: services['reduction-aigc'], icon: <RobotOutlined />, tone: 'violet' },
  { service: services.ai, icon: <FormOutlined />, tone: 'amber' },
  { service: services.searchReport, icon: <FileProtectOutlined />, tone: 'blue' },
  { service: services.technologySearch, icon: <ExperimentOutlined />, tone: 'teal' },
  { service: services['technologySearch-downloadService'], icon: <CloudDownloadOutlined />, tone: 'violet' },
  { service: services.industryNews, icon: <ReadOutlined />, tone: 'slate' },
];

function ReportSample() {
  return (
    <div className="report-sample">
      <div className="report-sample__head">
        <SafetyCertificateOutlined />
        <span>{t.sampleTitle}</span>
      </div>
      {t.sampleRows.map((row) => (
        <div key={row.label} className="report-sample__row">
          <div className="report-sample__label">
            <span>{row.label}</span>
            <strong>{row.value.toFixed(1)}%</strong>
          </div>
          <div className="report-sample__bar">
            <span style={{ width: `${Math.min(100, row.value * 4)}%` }} />
          </div>
        </div>
      ))}
      <div className="report-sample__doc">
        <p>
          第一章 绪论　<mark>近年来，随着高等教育规模的持续扩大</mark>，学位论文质量保障……
        </p>
        <p>
          1.1 研究背景　<mark className="is-low">已有研究表明</mark>，学术规范教育对……
        </p>
      </div>
      <p className="report-sample__foot">{t.sampleChapters}</p>
    </div>
  );
}

function FreePromise() {
  const loggedIn = useIsLoggedIn();
  const actions: ReactNode = loggedIn ? (
    <Link to={paths['user-info']} className="btn-primary btn-lg">
      {t.freeMine}
    </Link>
  ) : (
    <>
      <Link to={paths.register} className="btn-primary btn-lg">
        {t.freeRegister}
      </Link>
      <Button size="large" onClick={() => uiActions.openLoginModal()}>
        {t.freeLogin}
      </Button>
    </>
  );
  return (
    <section className="free-promise">
      <div className="container free-promise__inner">
        <div>
          <h2>{t.freeTitle}</h2>
          <p>{t.freeText}</p>
          <FreeBenefits />
        </div>
        <div className="free-promise__actions">{actions}</div>
      </div>
    </section>
  );
}

/** The landing page `/`. */
export default function LandingPage() {
  return (
    <div className="landing">
      <section className="hero">
        <div className="container hero__inner">
          <div className="hero__copy">
            <p className="hero__eyebrow">{t.eyebrow}</p>
            <h1 className="hero__title">
              {t.heroTitleA}
              <br />
              <span>{t.heroTitleB}</span>
            </h1>
            <p className="hero__text">{t.heroText}</p>
            <div className="hero__actions">
              <Link to={paths.check} className="btn-primary btn-lg">
                {t.ctaCheck}
              </Link>
              <Link to={paths.ai} className="btn-ghost btn-lg">
                {t.ctaAi}
              </Link>
            </div>
            <ul className="hero__trust">
              {t.trust.map((item) => (
                <li key={item}>
                  <CheckCircleFilled /> {item}
                </li>
              ))}
            </ul>
          </div>
          <ReportSample />
        </div>
      </section>

      {/* Below the first screen: hydrated after it, in its own pass (src/main.tsx hydrates the
          prerendered page), so no single task of the app's start covers the whole page. Nothing
          here suspends; the boundary only splits the work. */}
      <Suspense>
        <section className="container landing-section">
          <header className="landing-section__head">
            <h2>{t.servicesTitle}</h2>
            <p>{t.servicesSubtitle}</p>
          </header>
          <div className="service-grid">
            {cards.map(({ service, icon, tone }) => (
              <Link key={service.route} to={paths[service.route]} className={`service-card tone-${tone}`}>
                <span className="service-card__icon">{icon}</span>
                <h3>{service.name}</h3>
                <p>{service.summary}</p>
                <span className="service-card__go">{t.useNow} →</span>
              </Link>
            ))}
          </div>
        </section>

        <FreePromise />
      </Suspense>

      <Suspense>
        <section className="container landing-section">
          <header className="landing-section__head">
            <h2>{t.stepsTitle}</h2>
          </header>
          <ol className="landing-steps">
            {t.steps.map((step, i) => (
              <li key={step.title}>
                <span className="landing-steps__num">{i + 1}</span>
                <h3>{step.title}</h3>
                <p>{step.text}</p>
              </li>
            ))}
          </ol>
        </section>

        <CasePhotos />
        <LatestNews />

        <section className="landing-promises">
          <div className="container">
            <header className="landing-section__head">
              <h2>{t.promiseTitle}</h2>
            </header>
            <div className="promise-grid">
              {t.promises.map((p) => (
                <div key={p.title} className="promise">
                  <h3>{p.title}</h3>
                  <p>{p.text}</p>
                </div>
              ))}
            </div>
          </div>
        </section>
      </Suspense>
    </div>
  );
}
