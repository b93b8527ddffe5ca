import { ServicePage } from '../../components/page/service-page';
import { services } from '../../config/services';
import { ReductionWorkspace } from '../../features/reduction';

export default function ReductionPage() {
  return (
    <ServicePage service={services.reduction}>
      <ReductionWorkspace kind="reduction" />
    </ServicePage>
  );
}
