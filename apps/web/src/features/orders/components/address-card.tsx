import { Button, Popconfirm, Tag } from 'antd';
import { addressTexts } from '../texts';
import type { Address } from '../types';

/** 北京市海淀区 for a municipality (city = province), 浙江省杭州市西湖区 otherwise. */
export function formatRegion(a: Pick<Address, 'province' | 'city' | 'district'>): string {
  return `${a.province}${a.city === a.province ? '' : a.city}${a.district}`;
}

/** 138****5678: addresses show the phone masked. */
export function maskAddressPhone(phone: string): string {
  return /^\d{11}$/.test(phone) ? `${phone.slice(0, 3)}****${phone.slice(7)}` : phone;
}

export function AddressCard({
  address,
  onEdit,
  onDelete,
  onSetDefault,
  busy,
}: {
  address: Address;
  onEdit: () => void;
  onDelete: () => void;
  onSetDefault: () => void;
  busy: boolean;
}) {
  return (
    <li className={`address-card${address.isDefault ? ' is-default' : ''}`} data-testid="address-card">
      <div className="address-card__main">
        <p className="address-card__head">
          <strong>{address.name}</strong>
          <span>{maskAddressPhone(address.phone)}</span>
          {address.isDefault && <Tag color="blue">{addressTexts.isDefault}</Tag>}
        </p>
        <p className="address-card__text">
          {formatRegion(address)} {address.detail}
        </p>
      </div>
      <div className="address-card__actions">
        {!address.isDefault && (
          <Button type="link" size="small" disabled={busy} onClick={onSetDefault}>
            {addressTexts.setDefault}
          </Button>
        )}
        <Button type="link" size="small" disabled={busy} onClick={onEdit}>
          {addressTexts.edit}
        </Button>
        <Popconfirm
          title={addressTexts.deleteConfirm}
          okText={addressTexts.confirmOk}
          cancelText={addressTexts.confirmCancel}
          okButtonProps={{ danger: true }}
          onConfirm={onDelete}
        >
          <Button type="link" size="small" danger disabled={busy}>
            {addressTexts.delete}
          </Button>
        </Popconfirm>
      </div>
    </li>
  );
}
