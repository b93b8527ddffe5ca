import { ErrorCode } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSmallLibrary } from '../small-library.ts';
import {
  buildCheckApp,
  type CheckTestApp,
  call,
  grantFreeCheck,
  newUser,
  storedCheckFiles,
  upload,
} from './check-helper.ts';
import {
  buildDocx,
  buildEncryptedDocx,
  buildFakeExe,
  buildPdf,
  buildScannedPdf,
  buildThesis,
  buildTxt,
  buildZipBombDocx,
  encodeGb18030,
  readDocFixture,
} from './fixtures.ts';

// Upload: every accepted format is parsed and priced before anything is paid; every bad file is
// refused with a Chinese message and leaves nothing behind (no file, no check, no order).

let t: CheckTestApp;
let user: { token: string; userId: string };

beforeAll(async () => {
  // A small cap so the "too large" case needs only 2.4 MB; a zip bomb of 220 MB inflated fits under it.
  t = await buildCheckApp({ env: { CHECK_UPLOAD_MAX_MB: '2' } });
  await importSmallLibrary(t);
  user = await newUser(t);
});

afterAll(async () => {
  await t.close();
});

const thesis = buildThesis({ seed: 11, chars: 6000 });
const nonWhitespace = (s: string) => [...s].filter((c) => !/\s/u.test(c)).length;

async function rowCounts() {
  const checks = await t.db
    .selectFrom('checks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const orders = await t.db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { checks: Number(checks.n), orders: Number(orders.n) };
}

describe('goods', () => {
  it('lists the check goods with unit prices per 1,000 characters, limits and the free rule', async () => {
    const res = await call<Record<string, unknown>[]>(t, '/freeCheck/goodsList');
    expect(res.code).toBe(0);
    expect(res.data.map((g) => g.goodsId)).toEqual([
      'check_undergrad',
      'check_master',
      'check_journal',
      'aigc_detection_standard',
    ]);
    expect(res.data.map((g) => g.kind)).toEqual(['similarity', 'similarity', 'similarity', 'aigc']);
    expect(res.data[0]).toMatchObject({
      name: '本科毕业论文查重',
      unitPriceFen: 200,
      unitSize: 1000,
      pricePerThousand: '2.00',
      maxQuantity: 300000,
      freeMaxChars: 10000,
      freeAvailable: false,
      uploadMaxBytes: 2 * 1024 * 1024,
    });
    expect(res.data[1]).toMatchObject({ goodsId: 'check_master', freeMaxChars: null });
  });
});

describe('accepted formats', () => {
  it.each([
    ['docx', 'thesis.docx', async () => buildDocx(thesis.blocks)],
    ['pdf', 'thesis.pdf', async () => buildPdf(thesis.blocks)],
    ['txt', 'thesis.txt', async () => buildTxt(thesis.text)],
  ] as const)('%s: parsed, counted and priced before payment', async (format, name, make) => {
    const res = await upload(t, user.token, { bytes: await make(), name });
    expect(res.code).toBe(0);
    const chars = nonWhitespace(thesis.text);
    // PDF lines are re-flowed by the layout, so only whitespace may differ: the count is the same.
    expect(res.data.chars).toBe(chars);
    const units = Math.ceil(chars / 1000);
    expect(res.data).toMatchObject({
      free: false,
      amountFen: units * 200,
      amount: (units * 2).toFixed(2),
      status: 'pending',
    });
    const order = await t.db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', res.data.orderId)
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({
      status: 'pending_payment',
      amount_fen: units * 200,
      quantity: chars,
      service_type: 'check',
    });
    const check = await t.db
      .selectFrom('checks')
      .selectAll()
      .where('id', '=', res.data.orderId)
      .executeTakeFirstOrThrow();
    expect(check).toMatchObject({
      file_format: format,
      chars,
      order_id: res.data.orderId,
      add_to_library: false,
    });
  });

  it('doc (Word 97) and GB18030 text', async () => {
    const doc = await upload(t, user.token, { bytes: readDocFixture(), name: '论文.doc' });
    expect(doc.code).toBe(0);
    expect(doc.data.chars).toBeGreaterThan(100);
    const gbText = '第一章 绪论\n论文查重是学位授予前的必要环节。';
    const gb = await upload(t, user.token, { bytes: encodeGb18030(gbText), name: '论文.txt' });
    expect(gb.code).toBe(0);
    expect(gb.data.chars).toBe(nonWhitespace(gbText));
  });

  it('a free check is offered to an account holding one, within the free cap', async () => {
    const holder = await newUser(t);
    await grantFreeCheck(t, holder.userId);
    const small = buildThesis({ seed: 12, chars: 3000 });
    const res = await upload(t, holder.token, { bytes: buildDocx(small.blocks), name: 'a.docx' });
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({ free: true, amountFen: 0, amount: '0.00', freeNote: null });
    expect(res.data.orderNo).toMatch(/^JC\d{20}$/);
    // No order is created for a free check.
    expect(
      await t.db.selectFrom('orders').select('id').where('id', '=', res.data.orderId).executeTakeFirst(),
    ).toBeUndefined();
    // Over the cap (10,000 characters for 本科): a paid order, and the reason.
    const big = buildThesis({ seed: 13, chars: 14_000 });
    const over = await upload(t, holder.token, { bytes: buildDocx(big.blocks), name: 'b.docx' });
    expect(over.data).toMatchObject({ free: false });
    expect(over.data.freeNote).toMatch(/免费查重限 10,000 字以内/);
    // Goods without a free rule: always paid (期刊; 硕博 is not on sale without the thesis collection).
    const journal = await upload(
      t,
      holder.token,
      { bytes: buildDocx(small.blocks), name: 'c.docx' },
      { goodsId: 'check_journal' },
    );
    expect(journal.data).toMatchObject({ free: false, freeNote: null });
  });
});

describe('bad input is refused before payment, nothing stored', () => {
  const cases: [string, () => Promise<{ bytes: Uint8Array; name: string }>, number, RegExp][] = [
    [
      'a renamed .exe',
      async () => ({ bytes: buildFakeExe(), name: 'thesis.docx' }),
      ErrorCode.CHECK_FILE_UNSUPPORTED,
      /不支持的文件格式/,
    ],
    [
      'an encrypted .docx',
      async () => ({ bytes: buildEncryptedDocx(), name: 'thesis.docx' }),
      ErrorCode.CHECK_FILE_ENCRYPTED,
      /已加密/,
    ],
    [
      'a zip bomb',
      async () => ({ bytes: buildZipBombDocx(220 * 1024 * 1024), name: 'thesis.docx' }),
      ErrorCode.CHECK_FILE_TOO_LARGE,
      /压缩炸弹/,
    ],
    [
      'a scanned PDF',
      async () => ({ bytes: buildScannedPdf(), name: 'scan.pdf' }),
      ErrorCode.CHECK_FILE_SCANNED,
      /扫描件/,
    ],
    [
      'an empty document',
      async () => ({ bytes: buildDocx([{ text: '   ' }]), name: 'empty.docx' }),
      ErrorCode.CHECK_FILE_EMPTY,
      /没有可检测的文字/,
    ],
    [
      'a file over the size limit',
      async () => ({ bytes: buildTxt('论文'.repeat(420_000)), name: 'big.txt' }),
      ErrorCode.CHECK_FILE_TOO_LARGE,
      /文件超过 2 MB/,
    ],
    [
      'a broken .docx',
      async () => ({ bytes: buildDocx(thesis.blocks).slice(0, 600), name: 'cut.docx' }),
      ErrorCode.CHECK_FILE_BROKEN,
      /损坏/,
    ],
  ];

  it.each(cases)('%s', async (_label, make, code, message) => {
    const before = await rowCounts();
    const filesBefore = storedCheckFiles(t);
    const res = await upload(t, user.token, await make());
    expect(res.code).toBe(code);
    expect(res.message).toMatch(message);
    expect(res.message).toMatch(/[\u4e00-\u9fff]/);
    expect(await rowCounts()).toEqual(before);
    expect(storedCheckFiles(t)).toEqual(filesBefore);
  });

  it('uploads are limited per client (20 a minute)', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 21; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/kyfw/web/v1/freeCheck/uploadFile',
        remoteAddress: '10.8.8.8',
        headers: { token: user.token, 'content-type': 'application/json' },
        payload: '{}',
      });
      codes.push(res.json().code);
    }
    expect(codes.slice(0, 20).every((c) => c === ErrorCode.CHECK_FILE_MISSING)).toBe(true);
    expect(codes[20]).toBe(ErrorCode.RATE_LIMITED);
  });

  it('missing file, missing fields, unknown goods, not logged in', async () => {
    const noFile = await upload(t, user.token, null);
    expect(noFile).toMatchObject({ code: ErrorCode.CHECK_FILE_MISSING, message: '请选择要检测的论文文件' });
    const noTitle = await upload(
      t,
      user.token,
      { bytes: buildTxt(thesis.text), name: 'a.txt' },
      { title: ' ' },
    );
    expect(noTitle).toMatchObject({ code: ErrorCode.VALIDATION, message: '请输入论文题目' });
    const badGoods = await upload(
      t,
      user.token,
      { bytes: buildTxt(thesis.text), name: 'a.txt' },
      { goodsId: 'reduction_standard' },
    );
    expect(badGoods.code).toBe(ErrorCode.GOODS_NOT_FOUND);
    const anonymous = await upload(t, '', { bytes: buildTxt(thesis.text), name: 'a.txt' });
    expect(anonymous.code).toBe(ErrorCode.UNAUTHORIZED);
  });
});
