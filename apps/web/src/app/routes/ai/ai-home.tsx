import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { aiWritingAreas, services } from '../../../config/services';

/** /ai: the writing areas to choose from, the highlights and the steps. */
export default function AiHomePage() {
  return (
    <div className="container service-page__body">
      <section>
        <h2 className="section-title">选择写作类型</h2>
        <div className="related-grid related-grid--four">
          {aiWritingAreas.map((area) => (
            <Link key={area.route} to={paths[area.route]} className="related-card card-surface">
              <strong>{area.name}</strong>
              <span>{area.summary}</span>
              <em className="related-card__go">开始写作 →</em>
            </Link>
          ))}
        </div>
      </section>
      <section>
        <h2 className="section-title">服务特点</h2>
        <div className="highlight-grid">
          {services.ai.highlights.map((h) => (
            <div key={h.title} className="highlight card-surface">
              <h3>{h.title}</h3>
              <p>{h.text}</p>
            </div>
          ))}
        </div>
      </section>
      <section>
        <h2 className="section-title">使用流程</h2>
        <ol className="steps">
          {services.ai.steps.map((step, i) => (
            <li key={step} className="steps__item">
              <span className="steps__num">{i + 1}</span>
              <span>{step}</span>
            </li>
          ))}
        </ol>
      </section>
      <p className="notice">
        AI 生成的内容是辅助性初稿，请核实事实与引用，并遵守所在学校关于学术诚信与 AI 工具使用的规定。
      </p>
    </div>
  );
}
