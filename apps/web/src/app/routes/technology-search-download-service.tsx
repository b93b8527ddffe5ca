import { ServicePage } from '../../components/page/service-page';
import { services } from '../../config/services';

export default function DownloadServicePage() {
  return <ServicePage service={services['technologySearch-downloadService']} />;
}
