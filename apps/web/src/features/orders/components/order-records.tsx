import { formatYuan } from '@kyfw/contracts';
import { Tag, Timeline } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { formatDateTime } from '../lib/format';
import { orderTexts } from '../texts';
import type { OrderDetail } from '../types';

/** A titled part of the order's details, with an optional action beside the title. */
export function Section({
  title,
  children,
  extra,
}: {
  title: string;
  children: ReactNode;
  extra?: ReactNode;
}) {
  return (
    <section className="order-drawer__section">
      <header>
        <h3>{title}</h3>
        {extra}
      </header>
      {children}
    </section>
  );
}

/** The order's records in its details: invoice, status history, payments, refunds, transfer proofs. */
export function OrderRecords({ order }: { order: OrderDetail }) {
  return (
    <>
      {order.invoice && (
        <Section title={orderTexts.invoice}>
          <p>
            <span className="mono">{order.invoice.invoiceNo}</span>{' '}
            <Tag color={order.invoice.status === 'issued' ? 'green' : 'gold'}>
              {orderTexts.invoiceStatus[order.invoice.status]}
            </Tag>
            <Link to={paths['user-invoice']}>{'发票管理'}</Link>
          </p>
        </Section>
      )}

      {order.history.length > 0 && (
        <Section title={orderTexts.history}>
          <Timeline
            className="order-history"
            items={[...order.history].reverse().map((h, index) => ({
              key: `${h.at}-${index}`,
              color: index === 0 ? 'blue' : 'gray',
              content: (
                <div>
                  <strong>{h.statusText}</strong>
                  <span className="muted"> {formatDateTime(h.at)}</span>
                  {h.reason && <div className="order-history__reason">{h.reason}</div>}
                </div>
              ),
            }))}
          />
        </Section>
      )}

      {order.payments.length > 0 && (
        <Section title={orderTexts.payments}>
          <ul className="order-records">
            {order.payments.map((p) => (
              <li key={`${p.time}-${p.method}-${p.amountFen}`}>
                <span>{formatDateTime(p.time)}</span>
                <span>{p.methodText}</span>
                <strong>{formatYuan(p.amount)}</strong>
                <Tag color={p.status === 'accepted' ? 'green' : 'orange'}>{p.statusText}</Tag>
              </li>
            ))}
          </ul>
        </Section>
      )}

      {order.refunds.length > 0 && (
        <Section title={orderTexts.refunds}>
          <ul className="order-records">
            {order.refunds.map((r) => (
              <li key={r.refundId}>
                <span>{formatDateTime(r.createdAt)}</span>
                <span>{r.reason}</span>
                <strong>{formatYuan(r.amount)}</strong>
                <Tag color={r.status === 'succeeded' ? 'green' : r.status === 'failed' ? 'red' : 'gold'}>
                  {r.statusText}
                </Tag>
              </li>
            ))}
          </ul>
        </Section>
      )}

      {order.offlineProofs.length > 0 && (
        <Section title={orderTexts.proofs}>
          <ul className="order-records">
            {order.offlineProofs.map((p) => (
              <li key={p.proofId}>
                <span>{formatDateTime(p.createdAt)}</span>
                <span>{p.reviewNote ?? ''}</span>
                <Tag color={p.status === 'confirmed' ? 'green' : p.status === 'rejected' ? 'red' : 'gold'}>
                  {p.statusText}
                </Tag>
              </li>
            ))}
          </ul>
        </Section>
      )}
    </>
  );
}
