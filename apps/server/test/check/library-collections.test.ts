import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildCheckApp,
  type CheckTestApp,
  call,
  checkStatus,
  getReport,
  grantFreeCheck,
  newUser,
  payCheckOrder,
  runCheckJobs,
  seedLibrary,
  upload,
} from './check-helper.ts';
import { buildDocx, buildThesis, libraryText } from './fixtures.ts';

// The library knows its collections (set at import) and each check goods compares against the
// collections it names (issue 12): 硕博 "含学位论文库" really finds what only a thesis holds, 本科
// does not; every goods card states its scope with the real number of documents per collection.

let t: CheckTestApp;
const journal = libraryText(711, 1500);
const thesisDoc = libraryText(712, 1500);
const paper = buildThesis({
  seed: 71,
  chars: 6000,
  planted: [journal.slice(200, 380).replace(/\n/g, ''), thesisDoc.slice(300, 480).replace(/\n/g, '')],
});

interface Goods {
  goodsId: string;
  library: {
    collections: { collection: string; name: string; documents: number }[];
    documents: number;
  } | null;
}

beforeAll(async () => {
  t = await buildCheckApp();
  await seedLibrary(t, [
    { id: 'j:1', title: '期刊论文', collection: 'journal', text: journal },
    { id: 't:1', title: '学位论文', collection: 'thesis', text: thesisDoc },
  ]);
});
afterAll(() => t.close());

/** A check of the paper with these goods (本科 by its free check, the others paid), run to its report. */
async function checkWith(goodsId: string) {
  const user = await newUser(t);
  const free = goodsId === 'check_undergrad';
  if (free) await grantFreeCheck(t, user.userId);
  const up = await upload(t, user.token, { bytes: buildDocx(paper.blocks), name: 'p.docx' }, { goodsId });
  expect(up.data.free).toBe(free);
  if (free) {
    expect(
      (await call(t, '/freeCheck/payFee', { orderId: up.data.orderId }, { token: user.token })).code,
    ).toBe(0);
  } else {
    await payCheckOrder(t, user.token, up.data.orderId);
  }
  await runCheckJobs(t);
  expect((await checkStatus(t, user.token, up.data.orderId)).data.checkStatus).toBe('done');
  return (await getReport(t, user.token, up.data.orderId)).data;
}

describe('library collections', () => {
  it('each goods card states its scope from the library: real counts, 0 where a collection is empty', async () => {
    const goods = (await call<Goods[]>(t, '/freeCheck/goodsList', {})).data;
    const scope = (id: string) =>
      goods.find((g) => g.goodsId === id)?.library?.collections.map((c) => [c.collection, c.documents]);
    expect(scope('check_undergrad')).toEqual([
      ['journal', 1],
      ['web', 0],
      ['user', 0],
    ]);
    expect(scope('check_master')).toEqual([
      ['journal', 1],
      ['thesis', 1],
      ['web', 0],
      ['user', 0],
    ]);
    expect(scope('check_journal')).toEqual([
      ['journal', 1],
      ['web', 0],
    ]);
  });

  it('硕博 compares against the thesis collection, 本科 does not', async () => {
    const undergrad = await checkWith('check_undergrad');
    const master = await checkWith('check_master');
    expect(undergrad.sources.map((s) => s.id)).toEqual(['j:1']);
    expect(master.sources.map((s) => s.id).sort()).toEqual(['j:1', 't:1']);
    expect(master.figures.ratio).toBeGreaterThan(undergrad.figures.ratio);
    expect(master.sources.find((s) => s.id === 't:1')).toMatchObject({ collection: 'thesis' });
  });
});
