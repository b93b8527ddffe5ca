import { ErrorCode } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import { AppError } from '../../lib/app-error.ts';
import { UPLOAD_TEXTS } from '../../lib/upload.ts';
import type { AccountHooks } from './account-hooks.ts';

/**
 * What every upload route checks besides its own rules: the per-client rate limit
 * (UPLOAD_RATE_LIMIT_PER_MINUTE, per route and client address), and the per-account storage quota
 * (ACCOUNT_STORAGE_QUOTA_MB): what an account keeps is
 * summed over the modules' storage uses (papers of checks, 降重 documents, commission attachments,
 * offline payment proofs; AccountHooks.addStorageUse), and an upload that would pass the quota is
 * refused before it is parsed or stored. Deleting a record frees its share.
 */
export interface UploadGuard {
  /** The route's `config.rateLimit` (@fastify/rate-limit): uploads per client address and minute. */
  readonly rateLimit: { max: number; timeWindow: number };
  readonly quotaBytes: number;
  /** @throws AppError UPLOAD_QUOTA_EXCEEDED (1013) when the account's files plus `bytes` pass the quota */
  assertRoom(userId: string, bytes: number): Promise<void>;
}

export function createUploadGuard(deps: {
  db: Kysely<Database>;
  hooks: AccountHooks;
  quotaBytes: number;
  perClientPerMinute: number;
}): UploadGuard {
  const { db, hooks, quotaBytes } = deps;
  return {
    rateLimit: { max: deps.perClientPerMinute, timeWindow: 60_000 },
    quotaBytes,
    async assertRoom(userId, bytes) {
      const used = await hooks.storageUsed(db, userId);
      if (used + bytes <= quotaBytes) return;
      throw new AppError(
        ErrorCode.UPLOAD_QUOTA_EXCEEDED,
        UPLOAD_TEXTS.quotaFull(megabytes(used), megabytes(bytes), megabytes(quotaBytes)),
      );
    },
  };
}

function megabytes(bytes: number): string {
  return (Math.ceil((bytes / 1024 / 1024) * 10) / 10).toLocaleString('zh-CN');
}
