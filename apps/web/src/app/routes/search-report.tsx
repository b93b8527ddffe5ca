import { ServicePage } from '../../components/page/service-page';
import { services } from '../../config/services';
import { SearchReportForm } from '../../features/commission';

export default function SearchReportPage() {
  return (
    <ServicePage service={services.searchReport}>
      <SearchReportForm />
    </ServicePage>
  );
}
