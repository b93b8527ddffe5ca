import { consoleApi, type InvoiceSettings, type Staff } from '@kyfw/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiAnswer, renderRoutes, setUpPageTests, stubFetch } from '../../testing/test-utils';
import { InvoicesPage } from './components/invoices-page';

// 开票方式 on the invoices page (issue 23, decision 0031): finance chooses; support only reads.

setUpPageTests();

const staffOf = (role: Staff['role'], roleText: string): Staff => ({
  username: 'qianli',
  role,
  roleText,
  expiresAt: '2026-12-31T10:00:00.000Z',
});
const byDefault: InvoiceSettings = { issueMode: 'company_review', updatedBy: null, updatedAt: null };

function renderPage(staff: Staff) {
  const fetch = stubFetch((url, init) => {
    if (url.endsWith(consoleApi.me.path)) return apiAnswer(consoleApi.me, staff);
    if (url.endsWith(consoleApi.invoiceSettingsSave.path)) {
      const { issueMode } = JSON.parse(String(init.body)) as Pick<InvoiceSettings, 'issueMode'>;
      return apiAnswer(consoleApi.invoiceSettingsSave, {
        issueMode,
        updatedBy: staff.username,
        updatedAt: '2026-12-02T06:00:00.000Z',
      });
    }
    if (url.endsWith(consoleApi.invoiceSettings.path))
      return apiAnswer(consoleApi.invoiceSettings, byDefault);
    if (url.endsWith(consoleApi.invoiceList.path)) return apiAnswer(consoleApi.invoiceList, []);
    return undefined;
  });
  renderRoutes([{ path: '/admin/invoices', element: <InvoicesPage /> }], '/admin/invoices');
  return fetch;
}

describe('开票方式', () => {
  it('shows the default (企业 titles reviewed) and finance changes it', async () => {
    const fetch = renderPage(staffOf('finance', '财务'));
    const byCompany = await screen.findByRole('radio', { name: /企业抬头经财务审核后开具/ });
    await waitFor(() => expect((byCompany as HTMLInputElement).checked).toBe(true));
    expect(screen.getByText('待开票（待审核）')).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: /全部经财务审核/ }));
    await waitFor(() =>
      expect(fetch.mock.calls.some(([u]) => String(u).endsWith(consoleApi.invoiceSettingsSave.path))).toBe(
        true,
      ),
    );
    const sent = fetch.mock.calls.find(([u]) => String(u).endsWith(consoleApi.invoiceSettingsSave.path));
    expect(JSON.parse(String(sent![1]!.body))).toEqual({ issueMode: 'review' });
  });

  it('support sees it but cannot change it', async () => {
    renderPage(staffOf('support', '客服'));
    const radio = (await screen.findByRole('radio', { name: /用户申请后立即开具/ })) as HTMLInputElement;
    await waitFor(() => expect(screen.getByText(/仅管理员和财务可修改开票方式/)).toBeTruthy());
    expect(radio.disabled).toBe(true);
  });
});
