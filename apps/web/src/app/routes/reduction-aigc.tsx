import { ServicePage } from '../../components/page/service-page';
import { services } from '../../config/services';
import { ReductionWorkspace } from '../../features/reduction';

export default function ReductionAigcPage() {
  return (
    <ServicePage service={services['reduction-aigc']}>
      <ReductionWorkspace kind="aigc_reduction" />
    </ServicePage>
  );
}
