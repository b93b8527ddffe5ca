import { Button, Radio, Spin, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { BaseModal } from '../../../components/ui/base-modal';
import { paths } from '../../../config/paths';
import { toast } from '../../../stores/ui-store';
import { useAddresses } from '../api/list-addresses';
import { useSetOrderDelivery } from '../api/set-order-delivery';
import { orderTexts } from '../texts';
import { formatRegion } from './address-card';

/** 选择收货地址: ties one of the user's addresses to the order for the courier. */
export function DeliveryAddressModal({
  open,
  orderId,
  onClose,
  onSaved,
}: {
  open: boolean;
  orderId: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  const addresses = useAddresses(open);
  const [selected, setSelected] = useState<string | null>(null);
  const delivery = useSetOrderDelivery();
  const list = addresses.data ?? [];

  useEffect(() => {
    if (open && selected === null && list.length > 0)
      setSelected((list.find((a) => a.isDefault) ?? list[0]).id);
  }, [open, list, selected]);

  function save() {
    if (!selected) return;
    delivery.mutate(
      { orderId, addressId: selected },
      {
        onSuccess: () => {
          toast.success(orderTexts.deliverySaved);
          onSaved();
        },
      },
    );
  }

  return (
    <BaseModal
      open={open}
      onClose={onClose}
      title={orderTexts.chooseAddressTitle}
      footer={
        <>
          <Button onClick={onClose}>{orderTexts.confirmCancel}</Button>
          <Button type="primary" disabled={!selected} loading={delivery.isPending} onClick={save}>
            {orderTexts.chooseAddressOk}
          </Button>
        </>
      }
    >
      {addresses.isPending ? (
        <Spin />
      ) : list.length === 0 ? (
        <p>
          {orderTexts.noAddress}
          <Link to={paths['user-address']}>{orderTexts.goAddAddress}</Link>
        </p>
      ) : (
        <Radio.Group
          className="address-choices"
          value={selected}
          onChange={(event) => setSelected(event.target.value as string)}
        >
          {list.map((address) => (
            <Radio key={address.id} value={address.id} className="address-choice">
              <span className="address-choice__head">
                <strong>{address.name}</strong> {address.phone}
                {address.isDefault && <Tag color="blue">{orderTexts.defaultTag}</Tag>}
              </span>
              <span className="address-choice__text">
                {formatRegion(address)} {address.detail}
              </span>
            </Radio>
          ))}
        </Radio.Group>
      )}
    </BaseModal>
  );
}
