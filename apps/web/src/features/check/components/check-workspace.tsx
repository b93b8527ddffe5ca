import { Spin } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useIsLoggedIn, useSession } from '../../auth';
import { useCheckGoods, useRefreshCheckGoods } from '../api/get-goods-list';
import { useUploadInProgress } from '../api/upload-file';
import { rememberUpload } from '../lib/upload-cache';
import { checkTexts as t } from '../texts';
import type { UploadResult } from '../types';
import { GoodsPicker, isUnavailable } from './goods-picker';
import { UploadForm } from './upload-form';
import '../check.css';

/**
 * One check (?orderId=…: payment, progress, report) is its own chunk (issue 25): the page most
 * students open is the upload, and the order view brings the payment dialog, the report, steps and
 * results — dozens of files /check does not need before an upload. Asked for as soon as an upload
 * starts, so it is there when the upload answers.
 */
const loadOrderView = () => import('./check-order-view');
const CheckOrderView = lazy(() => loadOrderView().then((m) => ({ default: m.CheckOrderView })));
const LoginPrompt = lazy(() => loadOrderView().then((m) => ({ default: m.LoginPrompt })));

function Waiting() {
  return (
    <div className="ck-center">
      <Spin />
    </div>
  );
}

/**
 * The /check workspace. Without `?orderId`: choose the product and upload the paper. With it: that
 * check — price and payment, progress, report — so a reload or a link from 我的订单 resumes it.
 */
export function CheckWorkspace() {
  const [params, setParams] = useSearchParams();
  const orderId = params.get('orderId');
  const userId = useSession((s) => (s.userInfo?.id == null ? null : String(s.userInfo.id)));
  const checked = useSession((s) => s.checked);
  const loggedIn = useIsLoggedIn();
  const goods = useCheckGoods(userId);
  const refreshGoods = useRefreshCheckGoods();

  const onUploaded = (result: UploadResult) => {
    rememberUpload(result);
    setParams({ orderId: result.orderId });
  };

  if (orderId) {
    if (!checked) return <Waiting />;
    if (!loggedIn) {
      return (
        <Suspense fallback={<Waiting />}>
          <LoginPrompt />
        </Suspense>
      );
    }
    return (
      <Suspense fallback={<Waiting />}>
        <CheckOrderView
          key={orderId}
          orderId={orderId}
          goods={goods.data}
          onNew={() => {
            // The free check may have been used (or returned): ask again.
            refreshGoods();
            setParams({});
          }}
        />
      </Suspense>
    );
  }
  return <CheckStart goods={goods} onUploaded={onUploaded} />;
}

function CheckStart({
  goods,
  onUploaded,
}: {
  goods: ReturnType<typeof useCheckGoods>;
  onUploaded: (result: UploadResult) => void;
}) {
  const [goodsId, setGoodsId] = useState<string | null>(null);
  const busy = useUploadInProgress();
  const list = goods.data;
  const selected = list?.find((g) => g.goodsId === goodsId);
  // An upload under way ends on its order's view: fetch that chunk meanwhile.
  useEffect(() => {
    if (busy) void loadOrderView();
  }, [busy]);
  // Default: the first product on sale (本科), once the list is there; a product that goes off sale
  // (the list refetched) is not kept selected.
  useEffect(() => {
    if (list && (!selected || isUnavailable(selected))) {
      const first = list.find((g) => !isUnavailable(g));
      if (first && first.goodsId !== goodsId) setGoodsId(first.goodsId);
    }
  }, [goodsId, list, selected]);
  return (
    <div className="ck-start">
      <h3 className="ck-step-title">{t.goodsTitle}</h3>
      <GoodsPicker
        goods={list}
        loading={goods.isPending}
        error={goods.error}
        onRetry={() => goods.refetch()}
        value={goodsId}
        onChange={setGoodsId}
        disabled={busy}
      />
      <h3 className="ck-step-title">{t.uploadTitle}</h3>
      <UploadForm goods={selected} onUploaded={onUploaded} />
      <p className="ck-disclaimer muted">{t.disclaimer}</p>
    </div>
  );
}
