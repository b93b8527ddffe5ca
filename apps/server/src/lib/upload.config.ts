import { z } from 'zod';
import { envVar as env, integer } from './env.ts';

/**
 * Limits of every upload route (lib/upload.ts), merged into the server's env schema (config.ts):
 * uploads per client address and minute on each route, and the files one account may keep.
 */
export const uploadEnvSchema = z.object({
  UPLOAD_RATE_LIMIT_PER_MINUTE: env(integer(1, 10_000).default(20)),
  ACCOUNT_STORAGE_QUOTA_MB: env(integer(1, 10_000_000).default(500)),
});

export function uploadConfigOf(e: z.output<typeof uploadEnvSchema>) {
  return {
    /** Uploads per client address and minute, on each upload route (as the check upload always had). */
    perClientPerMinute: e.UPLOAD_RATE_LIMIT_PER_MINUTE,
    /** Bytes of uploaded files one account may keep (papers, attachments, proofs, documents). */
    accountQuotaBytes: e.ACCOUNT_STORAGE_QUOTA_MB * 1024 * 1024,
  };
}

export type UploadConfig = ReturnType<typeof uploadConfigOf>;
