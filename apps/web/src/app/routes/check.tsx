import { ServicePage } from '../../components/page/service-page';
import { services } from '../../config/services';
import { CheckWorkspace } from '../../features/check';

export default function CheckPage() {
  return (
    <ServicePage service={services.check}>
      <CheckWorkspace />
    </ServicePage>
  );
}
