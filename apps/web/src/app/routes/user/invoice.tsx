import { InvoiceCenter, invoiceTexts } from '../../../features/orders';
import { UserPanel } from './user-panel';

export default function UserInvoicePage() {
  return (
    <UserPanel title={invoiceTexts.title} description={invoiceTexts.description}>
      <InvoiceCenter />
    </UserPanel>
  );
}
