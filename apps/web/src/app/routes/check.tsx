import { ServicePage } from '../../components/page/service-page';
import { services } from '../../config/services';

export default function CheckPage() {
  return <ServicePage service={services.check} />;
}
