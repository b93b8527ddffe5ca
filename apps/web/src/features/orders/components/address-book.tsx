import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Spin } from 'antd';
import { useState } from 'react';
import { toast } from '../../../stores/ui-store';
import { deleteAddress } from '../api/delete-address';
import { addressKeys, useAddresses } from '../api/list-addresses';
import { setDefaultAddress } from '../api/set-default-address';
import { addressTexts, MAX_ADDRESSES } from '../texts';
import type { Address } from '../types';
import { AddressCard } from './address-card';
import { AddressFormModal } from './address-form-modal';
import { Empty } from './empty';
import '../orders.css';

/** /user/address: the receiving addresses, default first; add, edit, delete, set default. */
export function AddressBook() {
  const queryClient = useQueryClient();
  const addresses = useAddresses();
  const [editing, setEditing] = useState<Address | 'new' | null>(null);
  const [busy, setBusy] = useState(false);
  const list = addresses.data ?? [];
  const full = list.length >= MAX_ADDRESSES;

  const refresh = () => queryClient.invalidateQueries({ queryKey: addressKeys.list });

  async function run(action: () => Promise<[unknown, unknown]>, done: string) {
    setBusy(true);
    const [error] = await action();
    if (!error) {
      toast.success(done);
      await refresh();
    }
    setBusy(false);
  }

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
              onDelete={() => run(() => deleteAddress(address.id), '收货地址已删除')}
              onSetDefault={() => run(() => setDefaultAddress(address.id), '已设为默认地址')}
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
          toast.success('收货地址已保存');
          void refresh();
        }}
      />
    </div>
  );
}
