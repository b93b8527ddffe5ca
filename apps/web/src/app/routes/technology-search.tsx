import { Link } from 'react-router';
import { ServicePage } from '../../components/page/service-page';
import { paths } from '../../config/paths';
import { services } from '../../config/services';

const related = [
  services['technologySearch-downloadService'],
  services['technologySearch-techEvaluation'],
] as const;

export default function TechnologySearchPage() {
  return (
    <ServicePage service={services.technologySearch}>
      <p className="muted">科技查新委托的在线提交入口正在接入中。你也可以先了解以下相关服务：</p>
      <div className="related-grid">
        {related.map((s) => (
          <Link key={s.route} to={paths[s.route]} className="related-card card-surface">
            <strong>{s.title}</strong>
            <span>{s.summary}</span>
          </Link>
        ))}
      </div>
    </ServicePage>
  );
}
