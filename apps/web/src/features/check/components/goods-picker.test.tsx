import { checkApi } from '@kyfw/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiAnswer, renderRoutes, setUpPageTests, stubFetch } from '../../../testing/test-utils';
import type { CheckGoods } from '../types';
import { CheckWorkspace } from './check-workspace';

setUpPageTests();

const REASON = '硕博学位论文查重须比对学位论文库，该库暂无收录，暂不可下单，请选择其他检测类型';

/** A goods card as /freeCheck/goodsList answers it (docs/api/check.md). */
function goods(over: Partial<CheckGoods> & Pick<CheckGoods, 'goodsId' | 'name'>): CheckGoods {
  return {
    serviceType: 'check',
    description: '',
    unitPriceFen: 200,
    unitPrice: '2.00',
    unitSize: 1000,
    unit: '千字',
    minQuantity: 1,
    maxQuantity: 300000,
    freeRule: null,
    pricePerThousand: '2.00',
    freeMaxChars: null,
    freeAvailable: false,
    freeStatus: null,
    library: null,
    uploadMaxBytes: 30 * 1024 * 1024,
    kind: 'similarity',
    available: true,
    unavailableReason: null,
    ...over,
  } as CheckGoods;
}

// The server refuses orders for goods whose collection is empty (硕博 without the thesis
// collection); the /check page shows that option as unavailable, with the same reason.
describe('/check goods that are not on sale', () => {
  it('shows 硕博 disabled with the reason, selects the first goods on sale, and does not let 硕博 be chosen', async () => {
    const list = [
      goods({
        goodsId: 'check_master',
        name: '硕博学位论文查重',
        pricePerThousand: '3.00',
        library: {
          collections: [
            { collection: 'journal', name: '学术期刊库', documents: 18190 },
            { collection: 'thesis', name: '学位论文库', documents: 0 },
          ],
          documents: 18190,
        },
        available: false,
        unavailableReason: REASON,
      }),
      goods({ goodsId: 'check_undergrad', name: '本科毕业论文查重' }),
    ];
    stubFetch((url) =>
      url.endsWith('/freeCheck/goodsList') ? apiAnswer(checkApi.goodsList, list) : undefined,
    );
    renderRoutes([{ path: '/check', element: <CheckWorkspace /> }], '/check');

    const master = await screen.findByRole('radio', { name: /硕博学位论文查重/ });
    const undergrad = screen.getByRole('radio', { name: /本科毕业论文查重/ });
    expect((master as HTMLInputElement).disabled).toBe(true);
    expect((undergrad as HTMLInputElement).disabled).toBe(false);
    // The reason is on the card and describes its radio button.
    const card = master.closest('label') as HTMLElement;
    expect(card.textContent).toContain('暂不可选');
    expect(card.textContent).toContain(REASON);
    expect(document.getElementById(master.getAttribute('aria-describedby') ?? '')?.textContent).toContain(
      REASON,
    );
    // Although listed first, 硕博 is not the default: 本科 is, and a click on 硕博 changes nothing.
    await waitFor(() => expect((undergrad as HTMLInputElement).checked).toBe(true));
    fireEvent.click(card);
    expect((master as HTMLInputElement).checked).toBe(false);
    expect((undergrad as HTMLInputElement).checked).toBe(true);
  });
});
