/**
 * Wire types of the paper-check API (/freeCheck/*, docs/api/check.md; read from
 * apps/server/src/modules/check while that page is being written).
 */
import type { PayStatus } from '../payment';

/** One product of /freeCheck/goodsList (本科 / 硕博 / 期刊). */
export interface CheckGoods {
  goodsId: string;
  serviceType: string;
  name: string;
  description: string;
  unitPriceFen: number;
  /** Yuan per unitSize characters, e.g. "2.00". */
  unitPrice: string;
  unitSize: number;
  unit: string;
  minQuantity: number;
  /** Most characters a paper of this kind may have. */
  maxQuantity: number;
  freeRule: { entitlement?: string; maxQuantity?: number; text?: string } | null;
  /** Yuan per 1,000 characters. */
  pricePerThousand: string;
  /** The free check's character cap for these goods; null when it has no free check. */
  freeMaxChars: number | null;
  /** The logged-in user holds the free check and may use it on these goods. */
  freeAvailable: boolean;
  /**
   * The caller's free check (null: these goods have none): login (anonymous; every account gets one
   * at registration), available, used, none (its phone or WeChat had it on an earlier account).
   */
  freeStatus?: 'login' | 'available' | 'used' | 'none' | null;
  /** Largest upload in bytes. */
  uploadMaxBytes: number;
  /** similarity: 查重; aigc: AIGC检测 (its report is the AIGC report). */
  kind: CheckKind;
}

export type CheckKind = 'similarity' | 'aigc';

/** /freeCheck/uploadFile: the parsed paper and its price, before anything is paid. */
export interface UploadResult {
  orderId: string;
  orderNo: string;
  /** Billed characters (字数, whitespace not counted). */
  chars: number;
  /** What is due: "0.00" for a free check. */
  amount: string;
  amountFen: number;
  /** What the paper costs at the catalogue price (also shown for a free check). */
  price: string;
  /** A free check waiting for /freeCheck/payFee. */
  free: boolean;
  /** Why the free check does not apply (e.g. over the cap), or null. */
  freeNote: string | null;
  goodsId: string;
  goodsName: string;
  title: string;
  author: string;
  fileName: string;
  format: string;
  addToLibrary: boolean;
  warnings: string[];
  status: CheckStatusValue;
}

export type CheckStatusValue = 'pending' | 'queued' | 'running' | 'done' | 'failed';
export type CheckStage = 'parsing' | 'comparing' | 'detecting' | 'reporting';

/** The check's part of /freeCheck/orderPayStatus (and /freeCheck/checkStatus, /payFee, /retryCheck). */
export interface CheckState {
  orderId: string;
  free: boolean;
  kind: CheckKind;
  checkStatus: CheckStatusValue;
  checkStatusText: string;
  stage: CheckStage | null;
  stageText: string | null;
  /** 0–100 */
  progress: number;
  failureReason: string | null;
  canRetry: boolean;
  reportReady: boolean;
}

/**
 * /freeCheck/orderPayStatus: the orders module's pay status plus the check's progress. A free check
 * has no order: `status` is null and `payStatus` is 1 once it was started.
 */
export type CheckPayStatus = Omit<PayStatus, 'status' | 'orderNo' | 'expireAt'> &
  CheckState & {
    status: PayStatus['status'];
    orderNo?: string;
    expireAt?: string;
  };

// The report's wire types (/freeCheck/report) are shared with the server.
export type {
  AigcParagraph,
  AigcReportModel,
  MatchKind,
  ReportFigures,
  ReportMatch,
  ReportModel,
  ReportSection,
  ReportSource,
} from '@kyfw/contracts';

/** pdf (检测报告), marked (全文标明引文), html (网页版报告), zip (全套). */
export type ReportFormat = 'pdf' | 'marked' | 'html' | 'zip';

/** One row of /freeCheck/orderList. */
export interface CheckListItem extends CheckState {
  orderNo: string;
  title: string;
  author: string;
  fileName: string;
  goodsId: string;
  goodsName: string | null;
  chars: number;
  amount: string;
  amountFen: number;
  payStatus: 0 | 1;
  /** The order's status (paid checks); null for a free check. */
  orderStatus: string | null;
  /** A transfer proof waits for an operator (待确认): no 去支付, no 删除 until it is reviewed. */
  offlinePending?: boolean;
  /** What happens next while it waits (from the server). */
  offlinePendingText?: string | null;
  createdAt: string;
  finishedAt: string | null;
  reportNo: string | null;
  /** 总文字复制比 (0–1) once the report exists; for an AIGC check its AIGC index / 100. */
  ratio: number | null;
  /** AIGC check: its index is in the reliable range (else 未见明显AI生成特征); null otherwise. */
  aigcReliable: boolean | null;
  actions: {
    view: boolean;
    download: boolean;
    pay: boolean;
    start: boolean;
    retry: boolean;
    delete: boolean;
  };
}

/** /freeCheck/verify: the signed summary of a genuine report. */
export interface VerifyResult {
  genuine: true;
  message: string;
  reportNo: string;
  title: string;
  /** Masked (张**). */
  author: string;
  goodsName: string;
  totalChars: number;
  copiedChars: number;
  ratio: number;
  ratioExcludingQuotes: number;
  maxSingleSourceRatio: number;
  checkedAt: string;
}
