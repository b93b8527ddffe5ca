import { ServicePage } from '../../components/page/service-page';
import { services } from '../../config/services';

export default function TechEvaluationPage() {
  return <ServicePage service={services['technologySearch-techEvaluation']} />;
}
