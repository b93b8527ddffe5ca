import { PaymentRecordsTable, paymentRecordTexts } from '../../../features/orders';
import { UserPanel } from './user-panel';

export default function UserPaymentRecordsPage() {
  return (
    <UserPanel title={paymentRecordTexts.title} description={paymentRecordTexts.description}>
      <PaymentRecordsTable />
    </UserPanel>
  );
}
