import { PaymentRecordsTable } from '../../../features/orders/components/payment-records-table';
import { paymentRecordTexts } from '../../../features/orders/texts';
import { UserPanel } from './user-panel';

export default function UserPaymentRecordsPage() {
  return (
    <UserPanel title={paymentRecordTexts.title} description={paymentRecordTexts.description}>
      <PaymentRecordsTable />
    </UserPanel>
  );
}
