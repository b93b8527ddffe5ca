import { Link } from 'react-router';
import { ServicePage } from '../../components/page/service-page';
import { paths } from '../../config/paths';
import { services } from '../../config/services';
import { PausedTag, TechSearchForm } from '../../features/commission';

const related = [
  { info: services['technologySearch-downloadService'], service: 'doc_delivery' },
  { info: services['technologySearch-techEvaluation'], service: 'tech_evaluation' },
] as const;

export default function TechnologySearchPage() {
  return (
    <ServicePage service={services.technologySearch}>
      <TechSearchForm />
      <h3 className="section-title">相关服务</h3>
      <div className="related-grid">
        {related.map(({ info, service }) => (
          <Link key={info.route} to={paths[info.route]} className="related-card card-surface">
            <strong>
              {info.title} <PausedTag service={service} />
            </strong>
            <span>{info.summary}</span>
          </Link>
        ))}
      </div>
    </ServicePage>
  );
}
