import { ServicePage } from '../../components/page/service-page';
import { services } from '../../config/services';
import { DocDeliveryForm } from '../../features/commission';

export default function DownloadServicePage() {
  return (
    <ServicePage service={services['technologySearch-downloadService']}>
      <DocDeliveryForm />
    </ServicePage>
  );
}
