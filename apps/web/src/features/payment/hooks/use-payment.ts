import { ErrorCode, STATUS_POLL_INTERVAL_MS } from '@kyfw/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { RequestError } from '../../../lib/request';
import { toast, uiActions } from '../../../stores/ui-store';
import { useRequestPayQr } from '../api/get-pay-qr';
import { getPayStatus } from '../api/get-pay-status';
import { paymentTexts } from '../texts';
import type { PayEndpoints, PayMethod, PayQr, PayStatus } from '../types';

export interface UsePaymentOptions<S extends PayStatus = PayStatus> extends PayEndpoints {
  /** The order to pay; null while there is none. */
  orderId: string | null | undefined;
  /** Fetch the code, poll and count down only while true (e.g. while the dialog is open). */
  active: boolean;
  /** The method selected first; default 'wx'. */
  initialMethod?: PayMethod;
  /** Once, when the status says paid (after the 支付成功 toast): the service's next step. */
  onPaid?: (status: S) => void;
  /** Every status answer (services add fields such as `progress`). */
  onStatus?: (status: S) => void;
  /** Default 3 s (spec §9). */
  pollIntervalMs?: number;
}

/** Why no QR code is shown: the server's message, and whether asking again may help. */
export interface PaymentError {
  code: number | null;
  message: string;
  retryable: boolean;
}

/** Why the order can no longer be paid. */
export type PaymentClosedReason = 'expired' | 'cancelled' | 'refunded';

export interface PaymentState<S extends PayStatus = PayStatus> {
  method: PayMethod;
  /** Switches the channel; the server closes the other channel's open code (no double payment). */
  selectMethod: (method: PayMethod) => void;
  qr: PayQr | null;
  qrLoading: boolean;
  qrError: PaymentError | null;
  /** Asks for the current channel's code again (after an error). */
  retryQr: () => void;
  /** The last status answer. */
  status: S | null;
  paid: boolean;
  closed: PaymentClosedReason | null;
  /** ISO time the order stops being payable (from the code, else from the status). */
  expireAt: string | null;
  /** Milliseconds left until `expireAt`, updated every second; null before it is known. */
  remainingMs: number | null;
  /** A transfer proof waits for an operator (the order does not expire meanwhile). */
  offlinePending: boolean;
  /** Polls the status now (e.g. after uploading a transfer proof). */
  refreshStatus: () => void;
}

function paymentErrorOf(error: RequestError): PaymentError {
  const code = error.code ?? null;
  return { code, message: error.message, retryable: code === null || RETRYABLE_CODES.has(code) };
}

const TERMINAL_STATUSES = new Set(['cancelled', 'refunded']);
const RETRYABLE_CODES = new Set<number>([ErrorCode.PAYMENT_UNAVAILABLE]);

/**
 * The payment logic shared by every service: fetches the chosen channel's QR code from the
 * service's endpoint, polls its pay status every 3 s while active, counts down to the expiry and
 * reports success once (toast 支付成功 + onPaid). Leaving (active false) stops everything; the
 * order stays pending and payable later from 我的订单.
 */
export function usePayment<S extends PayStatus = PayStatus>(options: UsePaymentOptions<S>): PaymentState<S> {
  const {
    qrPayCodeUrl,
    payStatusUrl,
    orderId,
    active,
    initialMethod = 'wx',
    pollIntervalMs = STATUS_POLL_INTERVAL_MS,
  } = options;
  const session = active && orderId ? orderId : null;

  const [method, setMethod] = useState<PayMethod>(initialMethod);
  const [attempt, setAttempt] = useState(0);
  const qrRequest = useRequestPayQr();
  const { mutate: requestQr } = qrRequest;
  const [status, setStatus] = useState<S | null>(null);
  const [paid, setPaid] = useState(false);
  const [now, setNow] = useState(() => Date.now());

  const onPaidRef = useRef(options.onPaid);
  const onStatusRef = useRef(options.onStatus);
  onPaidRef.current = options.onPaid;
  onStatusRef.current = options.onStatus;
  const paidRef = useRef(false);
  const pollNowRef = useRef<() => void>(() => {});

  // A new order (or reopening): start from scratch, before any effect of this render runs.
  const [prevSession, setPrevSession] = useState(session);
  if (session !== prevSession) {
    setPrevSession(session);
    setMethod(initialMethod);
    setAttempt(0);
    setStatus(null);
    setPaid(false);
    setNow(Date.now());
  }
  useEffect(() => {
    paidRef.current = false;
    if (!session) return;
    uiActions.setPayFlag(session);
    return () => uiActions.setPayFlag('');
  }, [session]);

  // The chosen channel's code; a new `attempt` asks again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the trigger to ask again
  useEffect(() => {
    if (!session || method === 'offline' || paidRef.current) return;
    requestQr(
      { url: qrPayCodeUrl, orderId: session, payType: method },
      {
        onError: (error) => {
          const code = (error as RequestError).code ?? null;
          // Already paid, expired, cancelled or under review: the status tells what to show.
          if (code !== null) pollNowRef.current();
          if (code === ErrorCode.OFFLINE_PROOF_PENDING) setMethod('offline');
        },
      },
    );
  }, [session, method, attempt, qrPayCodeUrl]);

  // The code's state while it belongs to this order and channel (the last one's under 线下转账).
  const asked = qrRequest.variables;
  const current =
    session !== null && asked?.orderId === session && (asked.payType === method || method === 'offline');
  const qr: PayQr | null = current ? (qrRequest.data ?? null) : null;
  const qrLoading = current && qrRequest.isPending;
  const qrError: PaymentError | null =
    current && qrRequest.error ? paymentErrorOf(qrRequest.error as RequestError) : null;

  // The pay status, every pollIntervalMs; one request at a time.
  useEffect(() => {
    if (!session) return;
    let stopped = false;
    let inFlight = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const controller = new AbortController();
    const tick = async () => {
      if (stopped || inFlight) return;
      clearTimeout(timer);
      inFlight = true;
      const [error, data] = await getPayStatus<S>(payStatusUrl, session, controller.signal);
      inFlight = false;
      if (stopped) return;
      if (!error && data) {
        setStatus(data);
        onStatusRef.current?.(data);
        if (data.payStatus === 1) {
          if (!paidRef.current) {
            paidRef.current = true;
            setPaid(true);
            toast.success(paymentTexts.paid);
            onPaidRef.current?.(data);
          }
          return;
        }
        if (data.status && TERMINAL_STATUSES.has(data.status)) return;
      }
      timer = setTimeout(tick, pollIntervalMs);
    };
    pollNowRef.current = () => void tick();
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
      controller.abort();
      pollNowRef.current = () => {};
    };
  }, [session, payStatusUrl, pollIntervalMs]);

  const expireAt = qr?.expireAt ?? status?.expireAt ?? null;
  const offlinePending = status?.offlinePending === true;

  // The countdown.
  useEffect(() => {
    if (!session || !expireAt || paid) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [session, expireAt, paid]);

  const remainingMs = expireAt ? Math.max(0, Date.parse(expireAt) - now) : null;

  let closed: PaymentClosedReason | null = null;
  if (!paid) {
    const s = status?.status;
    if (s === 'cancelled' || s === 'refunded' || s === 'expired') closed = s;
    else if (qrError?.code === ErrorCode.ORDER_CANCELLED) closed = 'cancelled';
    else if (qrError?.code === ErrorCode.ORDER_EXPIRED) closed = 'expired';
    else if (remainingMs === 0 && !offlinePending) closed = 'expired';
  }

  const selectMethod = useCallback((next: PayMethod) => setMethod(next), []);
  const retryQr = useCallback(() => setAttempt((n) => n + 1), []);
  const refreshStatus = useCallback(() => pollNowRef.current(), []);

  return {
    method,
    selectMethod,
    qr,
    qrLoading,
    qrError,
    retryQr,
    status,
    paid,
    closed,
    expireAt,
    remainingMs,
    offlinePending,
    refreshStatus,
  };
}
