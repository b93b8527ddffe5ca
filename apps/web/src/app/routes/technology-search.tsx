import { Link } from 'react-router';
import { ServicePage } from '../../components/page/service-page';
import { paths } from '../../config/paths';
import { services } from '../../config/services';
import { TechSearchForm } from '../../features/commission';

const related = [
  services['technologySearch-downloadService'],
  services['technologySearch-techEvaluation'],
] as const;

export default function TechnologySearchPage() {
  return (
    <ServicePage service={services.technologySearch}>
      <TechSearchForm />
      <h3 className="section-title">相关服务</h3>
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
