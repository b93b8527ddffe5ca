import type { ReactNode } from 'react';
import type { ServiceInfo } from '../../config/services';
import { PageHero } from './page-hero';

const texts = {
  eyebrow: '科研服务网 · 在线服务',
  highlights: '服务特点',
  steps: '使用流程',
  workspace: '在线办理',
  workspaceNote: '在线提交入口正在接入中，开放后即可在此直接提交。如需立即办理，请拨打页面底部的客服电话。',
};

/**
 * The frame of a service page: title and description, highlights, steps and the workspace where
 * the service's own feature (upload, order, results) is placed by its issue.
 */
export function ServicePage({ service, children }: { service: ServiceInfo; children?: ReactNode }) {
  return (
    <div className="service-page">
      <PageHero eyebrow={texts.eyebrow} title={service.title} description={service.description} />
      <div className="container service-page__body">
        {children && workspace(children)}
        {service.highlights.length > 0 && (
          <section aria-label={texts.highlights}>
            <h2 className="section-title">{texts.highlights}</h2>
            <div className="highlight-grid">
              {service.highlights.map((h) => (
                <div key={h.title} className="highlight card-surface">
                  <h3>{h.title}</h3>
                  <p>{h.text}</p>
                </div>
              ))}
            </div>
          </section>
        )}
        {service.steps.length > 0 && (
          <section aria-label={texts.steps}>
            <h2 className="section-title">{texts.steps}</h2>
            <ol className="steps">
              {service.steps.map((step, i) => (
                <li key={step} className="steps__item">
                  <span className="steps__num">{i + 1}</span>
                  <span>{step}</span>
                </li>
              ))}
            </ol>
          </section>
        )}
        {!children && workspace(<p className="muted">{texts.workspaceNote}</p>)}
      </div>
    </div>
  );
}

/** Where the service's own feature goes: first when it exists, after the description until then. */
function workspace(content: ReactNode) {
  return (
    <section className="service-page__workspace card-surface" aria-label={texts.workspace}>
      <h2 className="section-title">{texts.workspace}</h2>
      {content}
    </section>
  );
}
