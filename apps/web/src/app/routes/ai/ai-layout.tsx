import { NavLink, Outlet } from 'react-router';
import { PageHero } from '../../../components/page/page-hero';
import { paths } from '../../../config/paths';
import { aiWritingAreas, services } from '../../../config/services';

/** /ai and its four writing areas: the AI writing header with the area tabs. */
export default function AiLayout() {
  return (
    <div className="service-page">
      <PageHero
        eyebrow="科研服务网 · AI 辅助写作"
        title={services.ai.title}
        description={services.ai.description}
      >
        <nav className="area-tabs" aria-label="写作类型">
          <NavLink
            to={paths.ai}
            end
            className={({ isActive }) => (isActive ? 'area-tab is-active' : 'area-tab')}
          >
            概览
          </NavLink>
          {aiWritingAreas.map((area) => (
            <NavLink
              key={area.route}
              to={paths[area.route]}
              className={({ isActive }) => (isActive ? 'area-tab is-active' : 'area-tab')}
            >
              {area.name}
            </NavLink>
          ))}
        </nav>
      </PageHero>
      <Outlet />
    </div>
  );
}
