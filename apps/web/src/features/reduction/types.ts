export type ReductionKind = 'reduction' | 'aigc_reduction';

export interface ReductionView {
  reductionId: string;
  kind: ReductionKind;
  kindName: string;
  source: 'text' | 'file' | 'report';
  title: string;
  chars: number;
  orderId: string | null;
  status: 'ordered' | 'rewriting' | 'done' | 'failed';
  statusText: string;
  progress: number;
  paragraphs: number;
  rewritten: number;
  kept: number;
  rateBefore: number | null;
  rateAfter: number | null;
  aigcBefore: number | null;
  aigcAfter: number | null;
  sandbox: boolean;
  createdAt: string;
  finishedAt: string | null;
}

export interface ReductionItem {
  index: number;
  before: string;
  after: string;
  outcome: 'rewritten' | 'kept' | 'unchanged';
  note: string | null;
}

export interface ReductionResult extends ReductionView {
  sandboxNote: string | null;
  items: ReductionItem[];
}

export interface SubmittedReduction {
  reductionId: string;
  orderId: string;
  orderNo: string;
  amount: string;
  chars: number;
  paragraphs: number;
}

export interface ReductionPrice {
  goodsId: string;
  name: string;
  unitPrice: string;
  unit: string;
  maxQuantity: number;
  amountFen: number | null;
}
