import {
  type AdminGoods,
  consoleApi,
  goodsAdminApi,
  type SiteInfo,
  type Staff,
  siteAdminApi,
} from '@kyfw/contracts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiAnswer, renderRoutes, resetAppState, setUpPageTests, stubFetch } from '../../testing/test-utils';
import { ConsoleApp } from '../console';

setUpPageTests();

const staff = (role: Staff['role'], roleText: string): Staff => ({
  username: 'lihua',
  role,
  roleText,
  expiresAt: '2026-11-27T10:00:00.000Z',
});

const undergrad: AdminGoods = {
  goodsId: 'check_undergrad',
  serviceType: 'check',
  serviceTypeText: '论文查重',
  name: '本科毕业论文查重',
  description: '适用于专科、本科毕业论文。',
  unitPriceFen: 200,
  unitPrice: '2.00',
  unitSize: 1000,
  unit: '千字',
  minQuantity: 1,
  maxQuantity: 300000,
  freeRule: { entitlement: 'free_check', maxQuantity: 10000, text: '注册即送免费查重一次' },
  active: true,
  sortOrder: 10,
  turnaroundDays: null,
  orders: 12,
  updatedAt: '2026-11-27T01:00:00.000Z',
};

function renderGoods(role: Staff['role'], roleText: string) {
  const sent: { url: string; body: unknown }[] = [];
  stubFetch((url, init) => {
    sent.push({ url, body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body });
    if (url.endsWith(consoleApi.me.path)) return apiAnswer(consoleApi.me, staff(role, roleText));
    if (url.endsWith(goodsAdminApi.goodsList.path)) return apiAnswer(goodsAdminApi.goodsList, [undergrad]);
    if (url.endsWith(goodsAdminApi.goodsUpdate.path))
      return apiAnswer(
        goodsAdminApi.goodsUpdate,
        { ...undergrad, unitPriceFen: 350, unitPrice: '3.50' },
        '已保存',
      );
    return undefined;
  });
  renderRoutes([{ path: '/admin/*', element: <ConsoleApp /> }], '/admin/goods');
  return sent;
}

describe('the console goods and prices page', () => {
  it('lists the goods with price, unit, free rule, status and orders; the admin changes a price', async () => {
    const sent = renderGoods('admin', '管理员');
    const row = (await screen.findByText('本科毕业论文查重')).closest('tr')!;
    expect(within(row).getByText('2.00')).toBeTruthy();
    expect(within(row).getByText('每千字')).toBeTruthy();
    expect(within(row).getByText('免费查重，10000 字以内')).toBeTruthy();
    expect(within(row).getByText('在售')).toBeTruthy();
    // Sold in orders: it can be taken off sale, not deleted.
    expect(within(row).queryByRole('button', { name: '删除' })).toBeNull();
    fireEvent.click(within(row).getByRole('button', { name: '编辑' }));
    const drawer = await screen.findByRole('dialog');
    const price = within(drawer).getByLabelText('单价（元）');
    fireEvent.change(price, { target: { value: '3.5' } });
    fireEvent.click(within(drawer).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(sent.some((s) => s.url.endsWith(goodsAdminApi.goodsUpdate.path))).toBe(true));
    expect(sent.find((s) => s.url.endsWith(goodsAdminApi.goodsUpdate.path))!.body).toMatchObject({
      goodsId: 'check_undergrad',
      unitPrice: '3.5',
      freeRule: { entitlement: 'free_check', maxQuantity: 10000, text: '注册即送免费查重一次' },
    });
  });

  it('refuses a price with three decimals in the form, before asking the server', async () => {
    const sent = renderGoods('admin', '管理员');
    const row = (await screen.findByText('本科毕业论文查重')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: '编辑' }));
    const drawer = await screen.findByRole('dialog');
    fireEvent.change(within(drawer).getByLabelText('单价（元）'), { target: { value: '1.234' } });
    fireEvent.click(within(drawer).getByRole('button', { name: '保存' }));
    expect(
      await within(drawer).findByText('单价须为大于 0、不超过 99999.99 的金额，最多两位小数'),
    ).toBeTruthy();
    expect(sent.some((s) => s.url.endsWith(goodsAdminApi.goodsUpdate.path))).toBe(false);
  });

  it('finance reads the prices without edit buttons; support has no such page', async () => {
    renderGoods('finance', '财务');
    expect(await screen.findByText('本科毕业论文查重')).toBeTruthy();
    expect(screen.getByText('财务可查看商品与价格；修改价格、上下架由管理员操作。')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '编辑' })).toBeNull();
    expect(screen.queryByRole('button', { name: '新建商品' })).toBeNull();
    cleanup();
    resetAppState();
    renderGoods('support', '客服');
    expect(await screen.findByText('当前角色无权查看此页面')).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: '商品与价格' })).toBeNull();
  });
});

const webInfo: SiteInfo = {
  name: '科研服务网',
  contactPhone: '400-800-1234',
  companyAddress: '北京市海淀区学院路 30 号',
  qrCode: '/images/wechat-qr.png',
  recordNumber: '京ICP备12345678号-1',
  copyright: '© 2026 科研服务网',
};

function renderSite(role: Staff['role'], roleText: string) {
  const sent: { url: string; body: unknown }[] = [];
  stubFetch((url, init) => {
    sent.push({ url, body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body });
    if (url.endsWith(consoleApi.me.path)) return apiAnswer(consoleApi.me, staff(role, roleText));
    if (url.endsWith(siteAdminApi.siteGet.path))
      return apiAnswer(siteAdminApi.siteGet, {
        webInfo,
        friendLinks: [{ id: '3', name: '中国知网', url: 'https://www.cnki.net/', sortOrder: 0 }],
      });
    if (url.endsWith(siteAdminApi.siteSave.path)) return apiAnswer(siteAdminApi.siteSave, webInfo);
    return undefined;
  });
  renderRoutes([{ path: '/admin/*', element: <ConsoleApp /> }], '/admin/site');
  return sent;
}

describe('the console site info page', () => {
  it('shows the footer info and friend links; an editor saves a new phone', async () => {
    const sent = renderSite('editor', '编辑');
    expect(await screen.findByText('https://www.cnki.net/')).toBeTruthy();
    const phone = await screen.findByLabelText('联系电话');
    expect((phone as HTMLInputElement).value).toBe('400-800-1234');
    fireEvent.change(phone, { target: { value: '010-62345678' } });
    fireEvent.click(screen.getByRole('button', { name: '保存网站信息' }));
    await waitFor(() => expect(sent.some((s) => s.url.endsWith(siteAdminApi.siteSave.path))).toBe(true));
    expect(sent.find((s) => s.url.endsWith(siteAdminApi.siteSave.path))!.body).toEqual({
      ...webInfo,
      contactPhone: '010-62345678',
    });
  });

  it('refuses a friend link that is not http(s) in the form', async () => {
    const sent = renderSite('admin', '管理员');
    fireEvent.click(await screen.findByRole('button', { name: '添加链接' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: '坏链接' } });
    fireEvent.change(within(dialog).getByLabelText('网址'), { target: { value: 'javascript:alert(1)' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    expect(await within(dialog).findAllByText('须为 http:// 或 https:// 开头的完整网址')).not.toHaveLength(0);
    expect(sent.some((s) => s.url.endsWith(siteAdminApi.linkSave.path))).toBe(false);
  });

  it('is not a page for finance', async () => {
    renderSite('finance', '财务');
    expect(await screen.findByText('当前角色无权查看此页面')).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: '站点信息' })).toBeNull();
  });
});
