import { randomInt, randomUUID } from 'node:crypto';
import { ErrorCode } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import { AppError } from '../../lib/app-error.ts';
import { isUuid } from '../../lib/uuid.ts';
import { CAPTCHA_ISSUE_LIMIT, CAPTCHA_LENGTH, CAPTCHA_TTL_MS } from './accounts.policy.ts';
import { TEXTS } from './accounts.texts.ts';
import { safeEqualHex, sha256Hex } from './secrets.ts';

/**
 * The picture check (图形验证码) an address must pass to get more SMS codes once it has sent many
 * (decision 0030). Drawn here as an SVG of stroked paths — no text element, no font, no outside
 * service — each character scaled, turned and moved at random, over noise curves. Stored
 * server-side (the answer only as a hash), valid CAPTCHA_TTL_MS by the injected clock, single use,
 * and bound to the address that asked for it.
 */

/** Characters that cannot be mistaken for each other when drawn by hand (no 0/O, 1/I, 5/S…). */
const GLYPHS: Readonly<Record<string, readonly (readonly number[])[]>> = {
  '2': [[0, 3, 2, 0, 8, 0, 10, 3, 10, 6, 0, 16, 10, 16]],
  '3': [[0, 1, 10, 0, 4, 7, 10, 9, 10, 14, 6, 16, 0, 15]],
  '4': [[8, 16, 8, 0, 0, 11, 10, 11]],
  '6': [[9, 0, 3, 2, 0, 9, 1, 15, 6, 16, 10, 13, 9, 9, 4, 8, 0, 10]],
  '7': [[0, 0, 10, 0, 4, 16]],
  '8': [[5, 8, 1, 5, 2, 1, 5, 0, 8, 1, 9, 5, 5, 8, 1, 11, 2, 15, 5, 16, 8, 15, 9, 11, 5, 8]],
  '9': [[10, 6, 6, 8, 1, 7, 0, 3, 4, 0, 9, 1, 10, 7, 7, 14, 1, 16]],
  A: [
    [0, 16, 5, 0, 10, 16],
    [2, 10, 8, 10],
  ],
  C: [[10, 2, 6, 0, 2, 1, 0, 6, 0, 11, 2, 15, 6, 16, 10, 14]],
  E: [
    [10, 0, 0, 0, 0, 16, 10, 16],
    [0, 8, 7, 8],
  ],
  F: [
    [10, 0, 0, 0, 0, 16],
    [0, 8, 7, 8],
  ],
  H: [
    [0, 0, 0, 16],
    [10, 0, 10, 16],
    [0, 8, 10, 8],
  ],
  K: [
    [0, 0, 0, 16],
    [10, 0, 0, 10],
    [3, 7, 10, 16],
  ],
  M: [[0, 16, 0, 0, 5, 9, 10, 0, 10, 16]],
  N: [[0, 16, 0, 0, 10, 16, 10, 0]],
  P: [[0, 16, 0, 0, 8, 0, 10, 3, 8, 7, 0, 7]],
  R: [
    [0, 16, 0, 0, 8, 0, 10, 3, 8, 7, 0, 7],
    [4, 7, 10, 16],
  ],
  T: [
    [0, 0, 10, 0],
    [5, 0, 5, 16],
  ],
  W: [[0, 0, 2, 16, 5, 6, 8, 16, 10, 0]],
  X: [
    [0, 0, 10, 16],
    [10, 0, 0, 16],
  ],
  Y: [
    [0, 0, 5, 8, 10, 0],
    [5, 8, 5, 16],
  ],
};
const ALPHABET = Object.keys(GLYPHS);
const WIDTH = 120;
const HEIGHT = 44;

const rand = (min: number, max: number) => min + (randomInt(0, 10_000) / 10_000) * (max - min);
const fixed = (n: number) => n.toFixed(1);

/** A random answer of CAPTCHA_LENGTH characters. */
export function captchaAnswer(): string {
  let answer = '';
  for (let i = 0; i < CAPTCHA_LENGTH; i++) answer += ALPHABET[randomInt(ALPHABET.length)];
  return answer;
}

/** The SVG of `answer`: stroked paths only, each character distorted, with noise curves and dots. */
export function captchaSvg(answer: string): string {
  const parts: string[] = [];
  const colour = () => `hsl(${randomInt(0, 360)},55%,${randomInt(25, 40)}%)`;
  for (let i = 0; i < 3; i++) {
    const d = `M${fixed(rand(0, 20))} ${fixed(rand(5, 39))} Q${fixed(rand(30, 90))} ${fixed(rand(-10, 54))} ${fixed(rand(100, 120))} ${fixed(rand(5, 39))}`;
    parts.push(`<path d="${d}" stroke="${colour()}" stroke-width="1.2" fill="none"/>`);
  }
  const step = (WIDTH - 16) / answer.length;
  [...answer].forEach((char, index) => {
    const scale = rand(1.55, 1.9);
    const x = 8 + index * step + rand(0, step - 10 * scale * 0.9);
    const y = rand(3, HEIGHT - 16 * scale - 3);
    const angle = rand(-18, 18);
    const d = (GLYPHS[char] ?? [])
      .map((line) => {
        const points: string[] = [];
        for (let p = 0; p < line.length; p += 2) {
          points.push(`${fixed(line[p]! + rand(-0.6, 0.6))} ${fixed(line[p + 1]! + rand(-0.6, 0.6))}`);
        }
        return `M${points.join(' L')}`;
      })
      .join(' ');
    parts.push(
      `<path d="${d}" transform="translate(${fixed(x)} ${fixed(y)}) rotate(${fixed(angle)} 5 8) scale(${scale.toFixed(2)})" stroke="${colour()}" stroke-width="${(2.2 / scale).toFixed(2)}" stroke-linecap="round" stroke-linejoin="round" fill="none"/>`,
    );
  });
  for (let i = 0; i < 24; i++) {
    parts.push(
      `<circle cx="${fixed(rand(0, WIDTH))}" cy="${fixed(rand(0, HEIGHT))}" r="${fixed(rand(0.5, 1.4))}" fill="${colour()}"/>`,
    );
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}"><rect width="${WIDTH}" height="${HEIGHT}" fill="#f4f6fb"/>${parts.join('')}</svg>`;
}

function answerHash(id: string, answer: string): string {
  return sha256Hex(`${id}:${answer.trim().toUpperCase()}`);
}

/** Records a failure of an address (a wrong SMS code, a wrong picture check). */
export async function recordAddressFailure(
  db: Kysely<Database>,
  clientIp: string,
  kind: 'wrong_code' | 'wrong_captcha',
  now: Date,
): Promise<void> {
  await db
    .insertInto('sms_address_failures')
    .values({ client_ip: clientIp, kind, created_at: now })
    .execute();
}

/** The failures of an address since `since`, newest first. */
export async function listAddressFailures(
  db: Kysely<Database>,
  clientIp: string,
  since: Date,
): Promise<Date[]> {
  const rows = await db
    .selectFrom('sms_address_failures')
    .select('created_at')
    .where('client_ip', '=', clientIp)
    .where('created_at', '>', since)
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map((r) => r.created_at);
}

/** Picture checks and failures older than `before` (housekeeping). */
export async function deleteOldAddressRows(db: Kysely<Database>, before: Date) {
  const captchas = await db.deleteFrom('sms_captchas').where('created_at', '<', before).executeTakeFirst();
  const failures = await db
    .deleteFrom('sms_address_failures')
    .where('created_at', '<', before)
    .executeTakeFirst();
  return { captchas: Number(captchas.numDeletedRows), addressFailures: Number(failures.numDeletedRows) };
}

export function createCaptchaService(deps: { db: Kysely<Database>; now: () => Date; answer?: () => string }) {
  const { db } = deps;
  return {
    /**
     * A new picture check for this address: `{captchaId, image}` (an SVG data URL).
     * @throws AppError RATE_LIMITED past CAPTCHA_ISSUE_LIMIT a minute for the address
     */
    async issue(clientIp: string): Promise<{ captchaId: string; image: string }> {
      const now = deps.now();
      const recent = await db
        .selectFrom('sms_captchas')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('client_ip', '=', clientIp)
        .where('created_at', '>', new Date(now.getTime() - CAPTCHA_ISSUE_LIMIT.windowMs))
        .executeTakeFirstOrThrow();
      if (Number(recent.n) >= CAPTCHA_ISSUE_LIMIT.max)
        throw new AppError(ErrorCode.RATE_LIMITED, TEXTS.captchaLimit);
      const id = randomUUID();
      const answer = (deps.answer ?? captchaAnswer)();
      await db
        .insertInto('sms_captchas')
        .values({
          id,
          client_ip: clientIp,
          answer_hash: answerHash(id, answer),
          created_at: now,
          expires_at: new Date(now.getTime() + CAPTCHA_TTL_MS),
        })
        .execute();
      return {
        captchaId: id,
        image: `data:image/svg+xml;base64,${Buffer.from(captchaSvg(answer)).toString('base64')}`,
      };
    },

    /**
     * Uses the check up (right or wrong: single use). A wrong answer counts as a failure of the
     * address. @throws AppError CAPTCHA_REQUIRED (none given) | CAPTCHA_WRONG (wrong, used, expired,
     * or another address's)
     */
    async pass(clientIp: string, captcha: { captchaId?: string; captchaCode?: string }): Promise<void> {
      if (!captcha.captchaId || !captcha.captchaCode) throw new AppError(ErrorCode.CAPTCHA_REQUIRED);
      if (!isUuid(captcha.captchaId)) throw new AppError(ErrorCode.CAPTCHA_WRONG, TEXTS.captchaExpired);
      const now = deps.now();
      const used = await db
        .updateTable('sms_captchas')
        .set({ used_at: now })
        .where('id', '=', captcha.captchaId)
        .where('client_ip', '=', clientIp)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returning('answer_hash')
        .executeTakeFirst();
      if (!used) throw new AppError(ErrorCode.CAPTCHA_WRONG, TEXTS.captchaExpired);
      if (!safeEqualHex(answerHash(captcha.captchaId, captcha.captchaCode), used.answer_hash)) {
        await recordAddressFailure(db, clientIp, 'wrong_captcha', now);
        throw new AppError(ErrorCode.CAPTCHA_WRONG);
      }
    },
  };
}

export type CaptchaService = ReturnType<typeof createCaptchaService>;
