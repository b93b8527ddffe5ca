import { ServicePage } from '../../components/page/service-page';
import { services } from '../../config/services';

export default function ReductionAigcPage() {
  return <ServicePage service={services['reduction-aigc']} />;
}
