import type { RouteName } from '../../../config/paths';
import { aiWritingAreas } from '../../../config/services';
import { WritingWorkspace } from '../../../features/writing';

const AREA_IDS = {
  'ai-dissertation': 'dissertation',
  'ai-proposal': 'proposal',
  'ai-assignment': 'assignment',
  'ai-journalsReviewed': 'journalsReviewed',
} as const;

/** One AI writing area: its description and the writing workspace. */
export function WritingArea({ route }: { route: RouteName }) {
  const area = aiWritingAreas.find((a) => a.route === route) ?? aiWritingAreas[0];
  const id = AREA_IDS[area.route as keyof typeof AREA_IDS] ?? 'dissertation';
  return (
    <div className="container service-page__body">
      <section className="card-surface writing-area">
        <h2 className="section-title">{area.name}写作</h2>
        <p>{area.description}</p>
      </section>
      <WritingWorkspace area={id} />
    </div>
  );
}
