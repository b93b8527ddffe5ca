// Files over HTTP, shared by every module that takes an upload or sends a download: the multipart
// reader (one file and the text fields, the size cap enforced while reading) and the
// Content-Disposition of a download with a Chinese file name.
import { ErrorCode } from '@kyfw/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { rejectBadText } from '../plugins/input-guard.ts';
import { AppError } from './app-error.ts';

export const UPLOAD_TEXTS = {
  malformed: '上传内容不完整或格式错误（不是完整的 multipart/form-data 表单），请重新选择文件上传',
  tooLarge: (mb: number) => `文件超过 ${mb} MB，请压缩图片或拆分后上传`,
  quotaFull: (usedMb: string, fileMb: string, quotaMb: string) =>
    `账户的文件存储空间不足：已保存 ${usedMb} MB，上限 ${quotaMb} MB，放不下这个 ${fileMb} MB 的文件。请在“我的订单”中删除不再需要的检测、降重记录后再上传，或联系客服提高上限`,
} as const;

/** Content-Disposition with an ASCII fallback and the Chinese name per RFC 5987 / RFC 6266. */
export function attachment(fileName: string, asciiFallback: string): string {
  return `attachment; filename="${asciiFallback}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export type Upload = {
  fields: Record<string, string>;
  file?: { fileName: string; bytes: Buffer; truncated: boolean };
};

/**
 * Reads the multipart parts (the route's plugin registered @fastify/multipart with its limits): the
 * text fields and one `file`; the file stops at the size cap. A file over `maxMb` is
 * CHECK_FILE_TOO_LARGE, a malformed form 1001, a NUL or a lone surrogate in a field or the file
 * name 1001.
 */
export async function readUpload(request: FastifyRequest, maxMb: number): Promise<Upload> {
  const fields: Record<string, string> = {};
  let file: Upload['file'];
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
      } else if (!file && part.fieldname === 'file') {
        const chunks: Buffer[] = [];
        for await (const chunk of part.file) chunks.push(chunk as Buffer);
        file = {
          fileName: part.filename ?? '',
          bytes: Buffer.concat(chunks),
          truncated: part.file.truncated,
        };
      } else {
        part.file.resume();
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError(ErrorCode.CHECK_FILE_TOO_LARGE, UPLOAD_TEXTS.tooLarge(maxMb));
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE);
    if (error instanceof AppError) throw error;
    // Everything else here comes from parsing the client's form (no or a wrong boundary, a
    // truncated body, a part cut off): the client's error, not the server's.
    throw new AppError(ErrorCode.VALIDATION, UPLOAD_TEXTS.malformed, { cause: error });
  }
  if (file?.truncated) throw new AppError(ErrorCode.CHECK_FILE_TOO_LARGE, UPLOAD_TEXTS.tooLarge(maxMb));
  rejectBadText(fields, file?.fileName);
  return { fields, file };
}

/**
 * For a handler that parses an upload: an AbortSignal that fires when the client goes away before
 * the answer is sent (the extraction pool then stops the parsing, or drops it from its queue), and
 * the connection kept open for `holdMs` of silence while the upload is parsed — the extraction's
 * whole deadline (waiting for a worker included) plus a margin, so the idle timeout never drops a
 * connection whose answer is still coming. After the answer Node puts the keep-alive timeout back.
 */
export function extractionSignal(request: FastifyRequest, reply: FastifyReply, holdMs: number): AbortSignal {
  const controller = new AbortController();
  const response = reply.raw;
  response.once('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  const socket = request.raw.socket;
  if (socket && socket.timeout !== undefined && socket.timeout < holdMs) socket.setTimeout(holdMs);
  return controller.signal;
}

/** How long an upload's connection may stay silent while it is parsed (extractionSignal). */
export function extractionHoldMs(parseTimeoutMs: number): number {
  return parseTimeoutMs + 10_000;
}
