import type { RouteName } from '../../../config/paths';
import { aiWritingAreas } from '../../../config/services';
import { pageTitle } from '../../texts';

const steps = ['填写题目与要求', '生成并调整提纲', '撰写摘要与正文', '下载 Word 文档'];

/** The frame of one AI writing area; the writing workflow itself comes with the AI writing issue. */
export function WritingArea({ route }: { route: RouteName }) {
  const area = aiWritingAreas.find((a) => a.route === route) ?? aiWritingAreas[0];
  return (
    <div className="container service-page__body">
      <title>{pageTitle(`AI${area.name}写作`)}</title>
      <section className="card-surface writing-area">
        <h2 className="section-title">{area.name}写作</h2>
        <p>{area.description}</p>
        <ol className="steps steps--compact">
          {steps.map((step, i) => (
            <li key={step} className="steps__item">
              <span className="steps__num">{i + 1}</span>
              <span>{step}</span>
            </li>
          ))}
        </ol>
        <p className="muted">写作工作台正在接入中，开放后可在此填写题目、生成提纲并撰写全文。</p>
      </section>
    </div>
  );
}
