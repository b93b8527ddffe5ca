import { ErrorCode } from '@kyfw/contracts';
import { AppError } from '../../../lib/app-error.ts';
import { formatFenAsYuan } from '../../../providers/payment/index.ts';
import { sniffProofType } from '../files.ts';
import { findOrderById } from '../orders.repo.ts';
import type { OrdersRuntime } from '../orders.runtime.ts';
import { getOrderForUser } from '../orders.service.ts';
import { confirmPayment } from './confirm.service.ts';
import {
  findPendingProof,
  findProof,
  insertProof,
  listProofs,
  type ProofRecord,
  reviewProof,
} from './proofs.repo.ts';
import { closeQrCodesForOfflinePayment } from './start.service.ts';

/** What the payment dialog shows for 线下转账 (bank details from configuration). */
export function getOfflineInfo(rt: OrdersRuntime) {
  const { offline, proofMaxBytes } = rt.config;
  return {
    enabled: offline.enabled,
    bankName: offline.bankName,
    accountName: offline.accountName,
    accountNo: offline.accountNo,
    note: offline.note,
    proofMaxBytes,
    proofTypes: ['image/png', 'image/jpeg', 'image/webp', 'application/pdf'],
  };
}

/**
 * The user uploads the transfer proof for their pending order. The file is checked by content
 * (PNG/JPEG/WebP/PDF), capped in size, stored in the file storage (orders/offline-proofs), and the order
 * waits (it does not expire) until an operator confirms or rejects.
 * @throws AppError OFFLINE_PAYMENT_DISABLED / OFFLINE_PROOF_INVALID / OFFLINE_PROOF_TOO_LARGE /
 *   OFFLINE_PROOF_PENDING / RESOURCE_NOT_FOUND / ORDER_ALREADY_PAID / ORDER_EXPIRED / ORDER_CANCELLED
 */
export async function submitOfflineProof(
  rt: OrdersRuntime,
  input: { userId: string; orderId: string; data: Buffer; truncated: boolean },
): Promise<ProofRecord> {
  if (!rt.config.offline.enabled) throw new AppError(ErrorCode.OFFLINE_PAYMENT_DISABLED);
  const order = await getOrderForUser(rt.db, input.userId, input.orderId);
  if (order.status === 'paid' || order.status === 'processing' || order.status === 'done') {
    throw new AppError(ErrorCode.ORDER_ALREADY_PAID);
  }
  if (order.status === 'cancelled' || order.status === 'refunded')
    throw new AppError(ErrorCode.ORDER_CANCELLED);
  if (order.status === 'expired' || order.expireAt.getTime() <= rt.now().getTime()) {
    throw new AppError(ErrorCode.ORDER_EXPIRED);
  }
  if (input.truncated || input.data.length > rt.config.proofMaxBytes) {
    throw new AppError(
      ErrorCode.OFFLINE_PROOF_TOO_LARGE,
      `付款凭证文件不能超过 ${Math.floor(rt.config.proofMaxBytes / 1024 / 1024) || 1}MB`,
    );
  }
  const type = input.data.length > 0 ? sniffProofType(input.data) : null;
  if (!type) throw new AppError(ErrorCode.OFFLINE_PROOF_INVALID);
  if (await findPendingProof(rt.db, order.id)) throw new AppError(ErrorCode.OFFLINE_PROOF_PENDING);
  // Paying by transfer: the QR codes must not take a second payment.
  await closeQrCodesForOfflinePayment(rt, order);
  const now = rt.now();
  const fileKey = await rt.files.save('offline-proofs', type.extension, input.data, now);
  const proof = await insertProof(rt.db, {
    orderId: order.id,
    userId: input.userId,
    fileKey,
    mimeType: type.mimeType,
    sizeBytes: input.data.length,
    now,
  });
  if (!proof) {
    await rt.files.remove(fileKey);
    throw new AppError(ErrorCode.OFFLINE_PROOF_PENDING);
  }
  rt.logger.info({ orderNo: order.orderNo, proofId: proof.id }, 'offline payment proof received');
  return proof;
}

export function toProofView(proof: ProofRecord) {
  return {
    proofId: proof.id,
    status: proof.status,
    statusText: { pending: '待确认', confirmed: '已确认到账', rejected: '未通过' }[proof.status],
    reviewNote: proof.reviewNote,
    createdAt: proof.createdAt.toISOString(),
    reviewedAt: proof.reviewedAt?.toISOString() ?? null,
  };
}

/** Operator list of proofs (default: those waiting). */
export async function listProofsForOperator(rt: OrdersRuntime, status: ProofRecord['status'] | undefined) {
  return (await listProofs(rt.db, status, 200)).map((p) => ({
    ...toProofView(p),
    orderNo: p.orderNo,
    amountFen: p.amountFen,
    amount: formatFenAsYuan(p.amountFen),
    mimeType: p.mimeType,
    sizeBytes: p.sizeBytes,
  }));
}

export async function readProofFile(rt: OrdersRuntime, proofId: string) {
  const proof = await findProof(rt.db, proofId);
  if (!proof?.fileKey) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND);
  return { data: await rt.files.read(proof.fileKey), mimeType: proof.mimeType };
}

/**
 * The operator saw the transfer arrive: the order is paid (actor operator) with a payment record
 * `OFFLINE-<proof id>`, and the proof is marked confirmed. Confirming twice changes nothing.
 */
export async function confirmOfflineProof(rt: OrdersRuntime, input: { proofId: string; note?: string }) {
  const proof = await findProof(rt.db, input.proofId);
  if (!proof) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, '凭证不存在');
  if (proof.status !== 'pending') throw new AppError(ErrorCode.CONFLICT, '该凭证已处理');
  const order = await findOrderById(rt.db, proof.orderId);
  if (!order) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND);
  const { outcome } = await confirmPayment(rt, {
    channel: 'offline',
    orderId: order.id,
    transactionId: `OFFLINE-${proof.id}`,
    amountFen: order.amountFen,
    paidAt: rt.now(),
    raw: { proofId: proof.id, note: input.note ?? null },
    source: 'operator',
  });
  await reviewProof(rt.db, proof.id, 'confirmed', input.note ?? null, rt.now());
  return { outcome, orderNo: order.orderNo };
}

/** The operator found no matching transfer: the proof is rejected and the order may expire again. */
export async function rejectOfflineProof(rt: OrdersRuntime, input: { proofId: string; reason: string }) {
  if (!(await reviewProof(rt.db, input.proofId, 'rejected', input.reason, rt.now()))) {
    throw new AppError(ErrorCode.CONFLICT, '凭证不存在或已处理');
  }
}
