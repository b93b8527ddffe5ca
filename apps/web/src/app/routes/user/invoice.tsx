import { InvoiceCenter } from '../../../features/orders/components/invoice-center';
import { invoiceTexts } from '../../../features/orders/texts';
import { UserPanel } from './user-panel';

export default function UserInvoicePage() {
  return (
    <UserPanel title={invoiceTexts.title} description={invoiceTexts.description}>
      <InvoiceCenter />
    </UserPanel>
  );
}
