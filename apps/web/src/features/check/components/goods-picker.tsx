import { CheckCircleFilled, GiftOutlined } from '@ant-design/icons';
import { Alert, Button, Skeleton } from 'antd';
import { formatCharLimit, formatChars, freeCheckFor } from '../lib/format';
import { checkTexts as t } from '../texts';
import type { CheckGoods } from '../types';

export interface GoodsPickerProps {
  goods: CheckGoods[] | undefined;
  loading: boolean;
  error: Error | null;
  onRetry: () => void;
  value: string | null;
  onChange: (goodsId: string) => void;
  disabled?: boolean;
}

/** Goods the server does not sell now (its list says `available: false`). */
export function isUnavailable(goods: Pick<CheckGoods, 'available'>): boolean {
  return goods.available === false;
}

/** The products as cards: name, price per 1,000 characters, the limit and the free check. */
export function GoodsPicker({ goods, loading, error, onRetry, value, onChange, disabled }: GoodsPickerProps) {
  // The space the cards will take (check.css): the upload form below does not jump when they arrive.
  if (loading && !goods) {
    return (
      <div className="ck-goods-loading">
        <Skeleton active paragraph={{ rows: 3 }} />
      </div>
    );
  }
  if (error && !goods) {
    return (
      <Alert
        type="error"
        showIcon
        title={t.goodsFailed}
        description={error.message}
        action={<Button onClick={onRetry}>{t.retry}</Button>}
      />
    );
  }
  return (
    <fieldset className="ck-goods" aria-label={t.goodsTitle}>
      {(goods ?? []).map((g) => {
        const selected = g.goodsId === value;
        const free = freeCheckFor(g);
        const cap = g.freeMaxChars !== null ? formatCharLimit(g.freeMaxChars) : '';
        // Not on sale now (硕博 while the thesis collection is empty): shown, not selectable, with
        // the server's reason — the same words its upload would be refused with.
        const unavailable = isUnavailable(g);
        const reasonId = `ck-goods-unavailable-${g.goodsId}`;
        return (
          <label
            key={g.goodsId}
            className={`ck-goods__card${selected ? ' is-selected' : ''}${disabled ? ' is-disabled' : ''}${unavailable ? ' is-unavailable' : ''}`}
            data-goods-id={g.goodsId}
          >
            <input
              type="radio"
              name="check-goods"
              className="ck-goods__radio"
              value={g.goodsId}
              checked={selected}
              disabled={disabled || unavailable}
              aria-describedby={unavailable ? reasonId : undefined}
              onChange={() => onChange(g.goodsId)}
            />
            {selected && <CheckCircleFilled className="ck-goods__check" />}
            <span className="ck-goods__name">{g.name}</span>
            <span className="ck-goods__price">
              <strong>{g.pricePerThousand}</strong> {t.perThousand}
            </span>
            <span className="ck-goods__desc">{g.description}</span>
            <span className="ck-goods__limit">{t.maxChars(formatCharLimit(g.maxQuantity))}</span>
            {g.library && (
              <span className="ck-goods__scope" data-testid="goods-scope">
                {t.scopeLabel}
                {g.library.collections
                  .map((c) =>
                    c.documents > 0 ? t.scopeCount(c.name, formatChars(c.documents)) : t.scopeEmpty(c.name),
                  )
                  .join('；')}
              </span>
            )}
            {unavailable && (
              <span className="ck-goods__unavailable" id={reasonId}>
                <strong>{t.unavailableBadge}</strong> {g.unavailableReason ?? ''}
              </span>
            )}
            {!unavailable && free === 'available' && (
              <span className="ck-goods__free is-held">
                <GiftOutlined /> {t.freeHeld(cap, g.kind === 'aigc')}
              </span>
            )}
            {!unavailable && free === 'not-held' && (
              <span className="ck-goods__free">
                <GiftOutlined />{' '}
                {g.freeStatus === 'used'
                  ? t.freeUsed(g.kind === 'aigc')
                  : g.freeStatus === 'none'
                    ? t.freeNone(g.kind === 'aigc')
                    : t.freeRuleDefault(cap, g.kind === 'aigc')}
              </span>
            )}
          </label>
        );
      })}
    </fieldset>
  );
}
