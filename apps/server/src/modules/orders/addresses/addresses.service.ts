import { ErrorCode } from '@kyfw/contracts';
import { AppError } from '../../../lib/app-error.ts';
import { isUuid } from '../../../lib/uuid.ts';
import { findOrderByNo } from '../orders.repo.ts';
import type { OrdersRuntime } from '../orders.runtime.ts';
import { getOrderForUser } from '../orders.service.ts';
import { TEXTS } from '../orders.texts.ts';
import {
  type AddressFields,
  type AddressRecord,
  countUserAddresses,
  type DeliveryRecord,
  deleteAddress,
  findDelivery,
  findUserAddress,
  insertAddress,
  listUserAddresses,
  lockUserAddresses,
  setDefaultAddress,
  shipDelivery,
  updateAddress,
  upsertDelivery,
} from './addresses.repo.ts';
import { isKnownRegion } from './divisions.ts';

/** Addresses one account may keep. */
export const MAX_ADDRESSES = 20;

export function toAddressView(a: AddressRecord) {
  return {
    id: a.id,
    name: a.name,
    phone: a.phone,
    province: a.province,
    city: a.city,
    district: a.district,
    detail: a.detail,
    isDefault: a.isDefault,
    updatedAt: a.updatedAt.toISOString(),
  };
}

export async function listAddresses(rt: OrdersRuntime, userId: string) {
  return (await listUserAddresses(rt.db, userId)).map(toAddressView);
}

function notFound(): AppError {
  return new AppError(ErrorCode.RESOURCE_NOT_FOUND, '收货地址不存在');
}

/**
 * Adds (no id) or edits (id of the user's own address) an address. The region must be a path of
 * the cityList tree. The first address, and any saved with isDefault, becomes the default.
 * @throws AppError VALIDATION (unknown region), RESOURCE_NOT_FOUND, ADDRESS_LIMIT_REACHED
 */
export async function saveAddress(
  rt: OrdersRuntime,
  userId: string,
  input: AddressFields & { id?: string; isDefault?: boolean },
) {
  if (!isKnownRegion(input.province, input.city, input.district)) {
    throw new AppError(ErrorCode.VALIDATION, '请选择正确的省市区');
  }
  const fields: AddressFields = {
    name: input.name,
    phone: input.phone,
    province: input.province,
    city: input.city,
    district: input.district,
    detail: input.detail,
  };
  const saved = await rt.db.transaction().execute(async (tx) => {
    await lockUserAddresses(tx, userId);
    const now = rt.now();
    let address: AddressRecord | undefined;
    if (input.id) {
      address = isUuid(input.id) ? await updateAddress(tx, userId, input.id, fields, now) : undefined;
      if (!address) throw notFound();
    } else {
      const count = await countUserAddresses(tx, userId);
      if (count >= MAX_ADDRESSES) {
        throw new AppError(ErrorCode.ADDRESS_LIMIT_REACHED, `收货地址最多保存 ${MAX_ADDRESSES} 个`);
      }
      address = await insertAddress(tx, userId, fields, now);
      if (count === 0) input = { ...input, isDefault: true };
    }
    if (input.isDefault) await setDefaultAddress(tx, userId, address.id, now);
    return (await findUserAddress(tx, userId, address.id))!;
  });
  return toAddressView(saved);
}

/** Deletes the user's address; when it was the default, the most recent other one takes over. */
export async function removeAddress(rt: OrdersRuntime, userId: string, id: string): Promise<void> {
  await rt.db.transaction().execute(async (tx) => {
    await lockUserAddresses(tx, userId);
    const removed = isUuid(id) ? await deleteAddress(tx, userId, id) : undefined;
    if (!removed) throw notFound();
    if (removed.isDefault) {
      const [next] = await listUserAddresses(tx, userId);
      if (next) await setDefaultAddress(tx, userId, next.id, rt.now());
    }
  });
}

export async function makeDefaultAddress(rt: OrdersRuntime, userId: string, id: string): Promise<void> {
  await rt.db.transaction().execute(async (tx) => {
    await lockUserAddresses(tx, userId);
    if (!isUuid(id) || !(await setDefaultAddress(tx, userId, id, rt.now()))) throw notFound();
  });
}

// --- courier delivery of printed reports --------------------------------------------------------

export function toDeliveryView(d: DeliveryRecord | undefined) {
  if (!d) return null;
  return {
    recipientName: d.recipientName,
    phone: d.phone,
    province: d.province,
    city: d.city,
    district: d.district,
    detail: d.detail,
    carrier: d.carrier,
    trackingNo: d.trackingNo,
    shippedAt: d.shippedAt?.toISOString() ?? null,
    statusText: d.shippedAt ? '已发货' : '待发货',
  };
}

/**
 * Ties one of the user's addresses to one of their orders for a printed report (a copy is kept,
 * so later edits of the address do not move a parcel). Changeable until shipped.
 * @throws AppError RESOURCE_NOT_FOUND (order or address not the user's), DELIVERY_NOT_ALLOWED
 */
export async function setOrderDelivery(
  rt: OrdersRuntime,
  userId: string,
  orderId: string,
  addressId: string,
) {
  const order = await getOrderForUser(rt.db, userId, orderId);
  const address = isUuid(addressId) ? await findUserAddress(rt.db, userId, addressId) : undefined;
  if (!address) throw notFound();
  if (!['pending_payment', 'paid', 'processing', 'done'].includes(order.status)) {
    throw new AppError(ErrorCode.DELIVERY_NOT_ALLOWED);
  }
  if (!(await upsertDelivery(rt.db, order.id, address, rt.now()))) {
    throw new AppError(ErrorCode.DELIVERY_NOT_ALLOWED, '订单已发货，不能修改收货地址');
  }
  return toDeliveryView(await findDelivery(rt.db, order.id));
}

/** Operator: the parcel left with a tracking number; the user sees it in /order/detail. */
export async function shipOrder(
  rt: OrdersRuntime,
  input: { orderNo: string; carrier: string; trackingNo: string },
) {
  const order = await findOrderByNo(rt.db, input.orderNo);
  if (!order) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, '订单不存在');
  if (order.status === 'refunded')
    throw new AppError(ErrorCode.DELIVERY_NOT_ALLOWED, TEXTS.refundedNoShipping);
  if (!['paid', 'processing', 'done'].includes(order.status))
    throw new AppError(ErrorCode.DELIVERY_NOT_ALLOWED);
  if (!(await shipDelivery(rt.db, order.id, input.carrier, input.trackingNo, rt.now()))) {
    throw new AppError(ErrorCode.DELIVERY_NOT_ALLOWED, '该订单未设置快递配送地址');
  }
  return toDeliveryView(await findDelivery(rt.db, order.id));
}
