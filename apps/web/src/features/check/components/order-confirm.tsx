import { GiftOutlined, ReloadOutlined, WalletOutlined } from '@ant-design/icons';
import { formatYuan } from '@kyfw/contracts';
import { Alert, Button, Tag } from 'antd';
import { formatChars, priceView } from '../lib/format';
import type { ProgressView } from '../lib/progress';
import type { OrderSummary } from '../lib/upload-cache';
import { checkTexts as t } from '../texts';
import type { CheckGoods } from '../types';

export interface OrderConfirmProps {
  summary: OrderSummary | null;
  orderNo: string | null;
  goods: CheckGoods | undefined;
  view: ProgressView;
  starting: boolean;
  onPay: () => void;
  onStartFree: () => void;
  onReupload: () => void;
}

/**
 * 确认订单: the parsed paper's characters and price before anything is paid, then 免费检测 (the free
 * check applies) or 去支付 (the payment dialog). A closed order only offers a new upload.
 */
export function OrderConfirm({
  summary,
  orderNo,
  goods,
  view,
  starting,
  onPay,
  onStartFree,
  onReupload,
}: OrderConfirmProps) {
  const free = view.phase === 'awaiting-free-start';
  const closed = view.phase === 'closed';
  const price = summary
    ? priceView(
        { ...summary, price: summary.price ?? summary.amount, freeNote: summary.freeNote ?? null },
        goods,
      )
    : null;
  return (
    <section className="ck-order" aria-label={t.orderTitle} data-testid="check-order">
      <h3 className="ck-step-title">{t.orderTitle}</h3>
      <div className="ck-order__body">
        <dl className="ck-order__facts">
          {summary && (
            <>
              <div>
                <dt>{t.paperTitle}</dt>
                <dd>{summary.title}</dd>
              </div>
              <div>
                <dt>{t.paperAuthor}</dt>
                <dd>{summary.author}</dd>
              </div>
              <div>
                <dt>{t.fileLabel}</dt>
                <dd>{summary.fileName}</dd>
              </div>
              <div>
                <dt>{t.goodsLabel}</dt>
                <dd>{summary.goodsName ?? goods?.name ?? '—'}</dd>
              </div>
            </>
          )}
          {orderNo && (
            <div>
              <dt>订单号</dt>
              <dd className="ck-mono">{orderNo}</dd>
            </div>
          )}
          {summary?.addToLibrary !== undefined && (
            <div>
              <dt>{t.libraryLabel}</dt>
              <dd>{summary.addToLibrary ? t.libraryYes : t.libraryNo}</dd>
            </div>
          )}
        </dl>
        {summary && price && (
          <div className="ck-order__price">
            <div className="ck-order__chars">
              <span>{t.charsLabel}</span>
              <strong data-testid="check-chars">{formatChars(summary.chars)}</strong>
              <span className="muted">{t.charsNote}</span>
            </div>
            <div className="ck-order__line">
              <span>{t.unitPriceLabel}</span>
              <span>{price.unitPrice}</span>
            </div>
            {price.unitSize > 1 && (
              <div className="ck-order__line">
                <span>{t.billedLabel}</span>
                <span>
                  {t.billedUnits(price.units)}
                  <span className="muted"> {t.billedRule}</span>
                </span>
              </div>
            )}
            {summary.parts && summary.parts.length > 1 && (
              // The order's parts, each priced by the server (the check and the AIGC add-on).
              <div className="ck-order__parts" data-testid="check-parts">
                {summary.parts.map((p) => (
                  <div className="ck-order__line" key={p.goodsId}>
                    <span>{p.goodsName}</span>
                    <span className={free ? 'ck-order__struck' : undefined}>{formatYuan(p.amount)}</span>
                  </div>
                ))}
              </div>
            )}
            <div className="ck-order__line">
              <span>{summary.parts && summary.parts.length > 1 ? t.addon.totalLabel : t.priceLabel}</span>
              <span className={free ? 'ck-order__struck' : undefined}>{price.price}</span>
            </div>
            <div className="ck-order__due">
              <span>{t.dueLabel}</span>
              <strong data-testid="check-amount">{free ? formatYuan('0') : price.due}</strong>
              {free && <Tag color="green">{goods?.kind === 'aigc' ? t.freeTagAigc : t.freeTag}</Tag>}
            </div>
          </div>
        )}
      </div>
      {summary?.freeNote && (
        <Alert type="info" showIcon title={summary.freeNote} className="ck-order__note" />
      )}
      {summary?.warnings && summary.warnings.length > 0 && (
        <Alert
          type="warning"
          showIcon
          className="ck-order__note"
          title={t.warningsTitle}
          description={
            <ul className="report__notes">
              {summary.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          }
        />
      )}
      {closed && <Alert type="warning" showIcon title={view.label} className="ck-order__note" />}
      <div className="ck-order__actions">
        {free && (
          <Button
            type="primary"
            size="large"
            icon={<GiftOutlined />}
            loading={starting}
            onClick={onStartFree}
            data-testid="start-free"
          >
            {starting ? t.freeStarting : t.freeStart}
          </Button>
        )}
        {view.phase === 'awaiting-payment' && (
          <Button type="primary" size="large" icon={<WalletOutlined />} onClick={onPay} data-testid="go-pay">
            {t.pay}
            {summary ? ` ${formatYuan(summary.amount)}` : ''}
          </Button>
        )}
        <Button size="large" icon={<ReloadOutlined />} onClick={onReupload}>
          {closed ? t.newCheck : t.reupload}
        </Button>
      </div>
    </section>
  );
}
