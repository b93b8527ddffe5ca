import { describe, expect, it } from 'vitest';
import { makeUserInfo } from '../../../testing/test-utils';
import { getAccountMenuEntries } from './account-menu-items';

const labels = (entries: { label: string }[]) => entries.map((e) => e.label);

describe('account menu (spec §2)', () => {
  it('lists the entries in order, with 修改密码 for a user with a phone number', () => {
    const entries = getAccountMenuEntries(makeUserInfo({ phoneNumber: '13800138000' }));
    expect(labels(entries)).toEqual(['我的订单', '支付记录', '个人信息', '修改密码', '收货地址', '退出登录']);
    expect(entries.map((e) => e.path)).toEqual([
      '/user/order/write',
      '/user/paymentRecords',
      '/user/info',
      '/user/password',
      '/user/address',
      undefined,
    ]);
  });

  it('hides 修改密码 without a bound phone number (e.g. after a WeChat login)', () => {
    expect(labels(getAccountMenuEntries(makeUserInfo({ wxOpenId: 'o-1', phoneNumber: null })))).toEqual([
      '我的订单',
      '支付记录',
      '个人信息',
      '收货地址',
      '退出登录',
    ]);
  });

  it('leaves out 退出登录 in the compact mode', () => {
    expect(labels(getAccountMenuEntries(makeUserInfo({ phoneNumber: '13800138000' }), 'compact'))).toEqual([
      '我的订单',
      '支付记录',
      '个人信息',
      '修改密码',
      '收货地址',
    ]);
  });
});
