import { PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Spin } from 'antd';
import { useState } from 'react';
import { toast } from '../../../stores/ui-store';
import { useDeleteAddress } from '../api/delete-address';
import { useAddresses } from '../api/list-addresses';
import { useSetDefaultAddress } from '../api/set-default-address';
import { addressTexts, MAX_ADDRESSES } from '../texts';
import type { Address } from '../types';
import { AddressCard } from './address-card';
import { AddressFormModal } from './address-form-modal';
import { Empty } from './empty';
import '../orders.css';

/** /user/address: the receiving addresses, default first; add, edit, delete, set default. */
export function AddressBook() {
  const addresses = useAddresses();
  const remove = useDeleteAddress();
  const makeDefault = useSetDefaultAddress();
  const [editing, setEditing] = useState<Address | 'new' | null>(null);
  const busy = remove.isPending || makeDefault.isPending;
  const list = addresses.data ?? [];
  const full = list.length >= MAX_ADDRESSES;

  return (
    <div className="address-book">
      <div className="address-book__bar">
        <Button type="primary" icon={<PlusOutlined />} disabled={full} onClick={() => setEditing('new')}>
          {addressTexts.add}
        </Button>
        <span className="muted">{addressTexts.limit(MAX_ADDRESSES)}</span>
      </div>
      {addresses.isPending ? (
        <div className="address-book__loading">
          <Spin />
        </div>
      ) : addresses.isError ? (
        <Alert type="error" showIcon title={addresses.error.message} />
      ) : list.length === 0 ? (
        <Empty text={addressTexts.empty} />
      ) : (
        <ul className="address-list">
          {list.map((address) => (
            <AddressCard
              key={address.id}
              address={address}
              busy={busy}
              onEdit={() => setEditing(address)}
              onDelete={() =>
                remove.mutate(address.id, { onSuccess: () => toast.success(addressTexts.deleted) })
              }
              onSetDefault={() =>
                makeDefault.mutate(address.id, { onSuccess: () => toast.success(addressTexts.madeDefault) })
              }
            />
          ))}
        </ul>
      )}
      <AddressFormModal
        open={editing !== null}
        address={editing === 'new' ? null : editing}
        isFirst={list.length === 0}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          toast.success(addressTexts.saved);
        }}
      />
    </div>
  );
}
