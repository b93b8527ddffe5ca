import { AddressBook, addressTexts } from '../../../features/orders';
import { UserPanel } from './user-panel';

export default function UserAddressPage() {
  return (
    <UserPanel title={addressTexts.title} description={addressTexts.description}>
      <AddressBook />
    </UserPanel>
  );
}
