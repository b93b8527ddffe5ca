import { ServicePage } from '../../components/page/service-page';
import { services } from '../../config/services';

export default function ReductionPage() {
  return <ServicePage service={services.reduction} />;
}
