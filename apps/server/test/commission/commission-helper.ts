import { randomBytes } from 'node:crypto';
import type { Commission, ConsoleCommission, StaffRoleName } from '@kyfw/contracts';
import { afterAll, beforeAll, expect } from 'vitest';
import { createWorker } from '../../src/jobs/index.ts';
import { commissionJobDefinitions } from '../../src/modules/commission/commission.jobs.ts';
import { createStaffService } from '../../src/modules/console/staff.service.ts';
import { totpCode } from '../../src/modules/console/totp.ts';
import { buildDocx } from '../check/fixtures.ts';
import {
  buildOrdersApp,
  call,
  devPay,
  type Envelope,
  type OrdersTestApp,
  SECOND,
  startPay,
} from '../orders/orders-helper.ts';

// Shared set-up of the commission tests (docs/api/commission.md).

export let t: OrdersTestApp;
export const staffAccounts = new Map<
  StaffRoleName,
  { username: string; password: string; totpSecret: string }
>();
export const DAY_MS = 24 * 3600 * SECOND;

/** The real app with a fulfilment, a support and a finance account; call once at the top of a test file. */
export function useCommissionTestApp(): void {
  beforeAll(async () => {
    t = await buildOrdersApp();
    const staff = createStaffService({ db: t.db, scryptCost: 10, now: t.clock.now });
    for (const role of ['fulfilment', 'support', 'finance', 'admin'] as const)
      staffAccounts.set(role, await staff.create({ username: `${role}c`, role }));
  });
  afterAll(async () => {
    await t.close();
  });
}

export function futureDate(days = 10): string {
  return new Date(t.clock.now().getTime() + days * DAY_MS).toISOString().slice(0, 10);
}

export async function staffLogin(role: StaffRoleName): Promise<string> {
  t.clock.advance(31 * SECOND);
  const account = staffAccounts.get(role)!;
  const res = await t.app.inject({
    method: 'POST',
    url: '/kyfw/web/v1/admin/auth/login',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({
      username: account.username,
      password: account.password,
      totpCode: totpCode(account.totpSecret, t.clock.now()),
    }),
  });
  expect(res.json().code).toBe(0);
  return String(res.headers['set-cookie']).split(';')[0]!;
}

export async function staffCall<T>(cookie: string, path: string, body: unknown) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/kyfw/web/v1/admin/commission${path}`,
    headers: { 'content-type': 'application/json', cookie },
    payload: JSON.stringify(body),
  });
  return res.json() as Envelope<T>;
}

export function multipart(fields: Record<string, string>, file: { bytes: Uint8Array; name: string } | null) {
  const boundary = `----kyfw${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  if (file)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.from(file.bytes),
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export async function uploadAttachment(token: string, file: { bytes: Uint8Array; name: string }) {
  const body = multipart({}, file);
  const res = await t.app.inject({
    method: 'POST',
    url: '/kyfw/web/v1/commission/uploadFile',
    headers: { terminal: 'PC', token, 'content-type': body.contentType },
    payload: body.payload,
  });
  return res.json() as Envelope<{ fileId: string; fileName: string; bytes: number }>;
}

export async function uploadReport(
  cookie: string,
  commissionId: string,
  file: { bytes: Uint8Array; name: string },
) {
  const body = multipart({ commissionId }, file);
  const res = await t.app.inject({
    method: 'POST',
    url: '/kyfw/web/v1/admin/commission/uploadReport',
    headers: { cookie, 'content-type': body.contentType },
    payload: body.payload,
  });
  return res.json() as Envelope<ConsoleCommission>;
}

export function download(token: string, commissionId: string, fileId: string) {
  return t.app.inject({
    method: 'POST',
    url: '/kyfw/web/v1/commission/download',
    headers: { terminal: 'PC', token, 'content-type': 'application/json' },
    payload: JSON.stringify({ commissionId, fileId }),
  });
}

export async function runCommissionJobs() {
  const worker = createWorker({ db: t.db, definitions: commissionJobDefinitions, services: t.root.services });
  const ids: string[] = [];
  for (let round = await worker.tick(); round.length > 0; round = await worker.tick()) ids.push(...round);
  await worker.stop();
  return ids;
}

export async function counts() {
  const [c, f, o] = await Promise.all([
    t.db
      .selectFrom('commissions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    t.db
      .selectFrom('commission_files')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    t.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { commissions: Number(c.n), files: Number(f.n), orders: Number(o.n) };
}

export const contact = { contactName: '王老师', contactPhone: '13912345678', unit: '某大学图书馆' };

export function techSearchForm(extra: Record<string, unknown> = {}) {
  return {
    service: 'tech_search',
    nameZh: '基于深度学习的农田土壤墒情预测方法',
    nameEn: 'Soil moisture prediction for farmland based on deep learning',
    purpose: '立项',
    scope: 'domestic',
    points: ['融合气象与遥感数据的墒情预测模型', ''],
    summary:
      '本项目针对农田土壤墒情监测成本高、时效差的问题，提出一种融合气象站观测、遥感影像与土壤传感器数据的深度学习预测方法，在三个省份的试验田进行了验证。',
    keywordsZh: ['土壤墒情', '深度学习', '遥感'],
    keywordsEn: ['soil moisture', 'deep learning', 'remote sensing'],
    urgency: 'standard',
    deadline: futureDate(),
    delivery: 'print',
    copies: 2,
    ...contact,
    ...extra,
  };
}

/** A 科技成果评价's form with its materials (`fileIds`). */
export function techEvaluationForm(fileIds: string[], extra: Record<string, unknown> = {}) {
  return {
    service: 'tech_evaluation',
    name: '新型节水灌溉装置',
    type: '应用技术成果',
    units: '某农业大学；某水利研究所',
    form: '会议评价',
    summary:
      '本成果研制了一种基于土壤墒情反馈的滴灌控制装置，在华北平原示范推广两千亩，节水约百分之三十，运行稳定，成本较低，便于推广。',
    urgency: 'standard',
    deadline: futureDate(30),
    delivery: 'pdf',
    fileIds,
    ...contact,
    ...extra,
  };
}

/** A 查新 with one attachment, submitted by `token`. */
export async function submitTechSearch(token: string, fileName: string) {
  const attachment = await uploadAttachment(token, {
    bytes: buildDocx([{ text: `${fileName}：内容。` }]),
    name: fileName,
  });
  expect(attachment.code).toBe(0);
  return call<Commission>(t, '/commission/submit', techSearchForm({ fileIds: [attachment.data.fileId] }), {
    token,
  });
}

export async function phoneOf(userId: string): Promise<string> {
  const row = await t.db
    .selectFrom('users')
    .select('phone_number')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.phone_number!;
}

/** Submits `form` as `token` and pays it (WeChat sandbox); the commission is then 处理中. */
export async function paidCommission(token: string, form: Record<string, unknown>) {
  const submitted = await call<Commission>(t, '/commission/submit', form, { token });
  expect(submitted.code).toBe(0);
  const qr = await startPay(t, token, submitted.data.orderId!, 'wx');
  expect((await devPay(t, qr.data.orderNo, 'wx')).code).toBe(0);
  expect(await t.sandbox.notificationSettled('wx', qr.data.orderNo)).toBe('acked');
  await runCommissionJobs();
  return { ...submitted.data, orderNo: qr.data.orderNo };
}
