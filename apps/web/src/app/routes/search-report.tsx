import { ServicePage } from '../../components/page/service-page';
import { services } from '../../config/services';

export default function SearchReportPage() {
  return <ServicePage service={services.searchReport} />;
}
