import { AddressBook } from '../../../features/orders/components/address-book';
import { addressTexts } from '../../../features/orders/texts';
import { UserPanel } from './user-panel';

export default function UserAddressPage() {
  return (
    <UserPanel title={addressTexts.title} description={addressTexts.description}>
      <AddressBook />
    </UserPanel>
  );
}
