import { ServicePage } from '../../components/page/service-page';
import { services } from '../../config/services';
import { TechEvaluationForm } from '../../features/commission';

export default function TechEvaluationPage() {
  return (
    <ServicePage service={services['technologySearch-techEvaluation']}>
      <TechEvaluationForm />
    </ServicePage>
  );
}
