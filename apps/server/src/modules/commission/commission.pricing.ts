import {
  COMMISSION_PRICING,
  COMMISSION_SERVICES,
  type CommissionFormData,
  ErrorCode,
  type estimateBody,
  formatYuan,
} from '@kyfw/contracts';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { formatFenAsYuan } from '../../providers/payment/index.ts';
import { turnaroundDaysOf } from './commission.repo.ts';
import { type CommissionRuntime, dueDateOf } from './commission.runtime.ts';
import { TEXTS } from './commission.texts.ts';

/** The price of a commission from the goods, its title and what its order keeps (meta). */
// --- pricing -------------------------------------------------------------------------------------

export type EstimateInput = z.output<typeof estimateBody>;

/** The goods and quantity a commission is priced by (quantity null: quoted later). */
function pricingOf(input: EstimateInput): {
  goodsId: string;
  quantity: number | null;
  explainCounts: string;
} {
  const urgent = input.urgency === 'urgent';
  switch (input.service) {
    case 'search_report':
      return {
        goodsId: urgent ? 'search_report_urgent' : 'search_report_standard',
        quantity: input.papers * input.databases || null,
        explainCounts: `${input.papers} 篇 × ${input.databases} 个数据库`,
      };
    case 'tech_search': {
      const scope = input.scope === 'global' ? 'global' : 'domestic';
      return {
        goodsId: `tech_search_${scope}${urgent ? '_urgent' : ''}`,
        quantity: 1,
        explainCounts: '1 项',
      };
    }
    case 'doc_delivery':
      return {
        goodsId: 'doc_delivery_standard',
        quantity: input.items || null,
        explainCounts: `${input.items} 篇`,
      };
    case 'tech_evaluation':
      return { goodsId: 'tech_evaluation_quote', quantity: null, explainCounts: '' };
  }
}

/**
 * Whether each service takes requests: its base goods (standard urgency, domestic scope, the quote
 * goods of 成果评价) is listed. Submitting an unlisted one is refused (GOODS_NOT_FOUND) all the same.
 */
export async function serviceStates(rt: CommissionRuntime) {
  return Promise.all(
    COMMISSION_SERVICES.map(async (service) => {
      const { goodsId } = pricingOf({ service, papers: 1, databases: 1, items: 1 });
      return { service, available: (await rt.orders.getGoods(goodsId)) !== undefined };
    }),
  );
}

/** The price shown before submitting, computed from the goods as the order will be. */
export async function estimate(rt: CommissionRuntime, input: EstimateInput) {
  const { goodsId, quantity, explainCounts } = pricingOf(input);
  const goods = await rt.orders.getGoods(goodsId);
  if (!goods) throw new AppError(ErrorCode.GOODS_NOT_FOUND, TEXTS.goodsMissing);
  const pricing = COMMISSION_PRICING[input.service];
  const unitPrice = formatFenAsYuan(goods.unitPriceFen);
  const amountFen =
    pricing === 'quote' || quantity === null ? null : rt.orders.priceFor(goods, quantity).amountFen;
  const explain =
    pricing === 'quote'
      ? TEXTS.pricingQuote
      : pricing === 'fixed'
        ? TEXTS.fixed(goods.name, formatYuan(unitPrice))
        : TEXTS.perItem(explainCounts, formatYuan(unitPrice), goods.unit);
  const turnaroundDays = await turnaroundDaysOf(rt.db, goods.id);
  return {
    service: input.service,
    pricing,
    goodsId: goods.id,
    goodsName: goods.name,
    unitPrice,
    unit: goods.unit,
    quantity: pricing === 'quote' ? null : quantity,
    amountFen,
    amount: amountFen === null ? null : formatFenAsYuan(amountFen),
    explain,
    turnaroundDays,
    /** The due date a payment today would record. */
    dueDate: dueDateOf(rt.now(), turnaroundDays),
  };
}

export function estimateInputOf(form: CommissionFormData): EstimateInput {
  const base = { service: form.service, papers: 0, databases: 0, items: 0 } as EstimateInput;
  switch (form.service) {
    case 'search_report':
      return { ...base, papers: form.papers.length, databases: form.databases.length, urgency: form.urgency };
    case 'tech_search':
      return { ...base, scope: form.scope, urgency: form.urgency };
    case 'doc_delivery':
      return { ...base, items: form.items.length };
    case 'tech_evaluation':
      return base;
  }
}

export function titleOf(form: CommissionFormData): string {
  const more = (first: string, n: number) => (n > 1 ? `${first.slice(0, 60)} 等${n}篇` : first.slice(0, 100));
  switch (form.service) {
    case 'search_report':
      return more(form.papers[0]!.title, form.papers.length);
    case 'tech_search':
      return form.nameZh;
    case 'doc_delivery':
      return more(form.items[0]!, form.items.length);
    case 'tech_evaluation':
      return form.name;
  }
}

/** What the order keeps of its commission: the title and whether printed copies go by courier. */
export function metaOf(id: string, title: string, form: Record<string, unknown>) {
  const print = form.delivery === 'print';
  return {
    title: title.slice(0, 100),
    commissionId: id,
    delivery: print ? 'print' : 'file',
    copies: print ? form.copies : 0,
  };
}
