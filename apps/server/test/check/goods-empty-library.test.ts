import { ErrorCode } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSmallLibrary } from '../small-library.ts';
import {
  buildCheckApp,
  type CheckTestApp,
  createdBy,
  goodsById,
  grantFreeCheck,
  newUser,
  upload,
} from './check-helper.ts';
import { buildDocx, buildThesis } from './fixtures.ts';

// A fresh install's comparison library is empty (issue 12): a similarity goods whose collections
// are ALL empty would find nothing whatever the paper, so it is not sold — its /check card says why
// (暂不可选 with the reason), the upload is refused with the same text and nothing is created, for
// a paid and for a free check. AIGC detection needs no library and stays on sale. Importing
// documents (here the tests' small library, through the real import) puts the goods on sale.

let t: CheckTestApp;
let user: { token: string; userId: string };
const paper = buildThesis({ seed: 83, chars: 3000 });

const EMPTY = {
  check_undergrad:
    '本科毕业论文查重的比对范围（学术期刊库、互联网资源库、用户授权论文库）暂无收录任何文献，查重无从比对，暂不可下单',
  check_master:
    '硕博学位论文查重的比对范围（学术期刊库、学位论文库、互联网资源库、用户授权论文库）暂无收录任何文献，查重无从比对，暂不可下单',
  check_journal:
    '期刊职称论文查重的比对范围（学术期刊库、互联网资源库）暂无收录任何文献，查重无从比对，暂不可下单',
};

beforeAll(async () => {
  t = await buildCheckApp();
  user = await newUser(t);
});
afterAll(() => t.close());

const goodsList = () => goodsById(t, user.token);

const counts = () => createdBy(t, user.userId);

const uploadPaper = (goodsId: string) =>
  upload(t, user.token, { bytes: buildDocx(paper.blocks), name: 'p.docx' }, { goodsId });

describe('an empty comparison library', () => {
  it('no similarity goods is sold: each card says why, AIGC detection stays on sale', async () => {
    const goods = await goodsList();
    for (const [id, reason] of Object.entries(EMPTY)) {
      expect(goods.get(id), id).toMatchObject({
        available: false,
        unavailableReason: reason,
        library: { documents: 0 },
      });
    }
    expect(goods.get('aigc_detection_standard')).toMatchObject({
      available: true,
      unavailableReason: null,
      library: null,
    });
  });

  it('refuses the upload of each similarity goods with the same text, paid or free, and creates nothing', async () => {
    await grantFreeCheck(t, user.userId);
    const before = await counts();
    for (const [id, reason] of Object.entries(EMPTY)) {
      const res = await uploadPaper(id);
      expect(res, id).toMatchObject({ code: ErrorCode.VALIDATION, message: reason, data: null });
    }
    expect(await counts()).toEqual(before);
    // The free check was not used up by the refusals.
    const entitlement = await t.db
      .selectFrom('entitlements')
      .select('used_at')
      .where('user_id', '=', user.userId)
      .where('kind', '=', 'free_check')
      .executeTakeFirstOrThrow();
    expect(entitlement.used_at).toBeNull();
  });

  it('after documents are imported, 本科 and 期刊 are on sale and the upload creates the check; 硕博 still waits for theses', async () => {
    expect(await importSmallLibrary(t)).toMatchObject({ added: 5 });
    const goods = await goodsList();
    for (const id of ['check_undergrad', 'check_journal']) {
      expect(goods.get(id), id).toMatchObject({ available: true, unavailableReason: null });
    }
    expect(goods.get('check_master')).toMatchObject({
      available: false,
      unavailableReason: '硕博学位论文查重须比对学位论文库，该库暂无收录，暂不可下单，请选择其他检测类型',
    });
    const before = await counts();
    const res = await uploadPaper('check_undergrad');
    expect(res.code).toBe(0);
    expect((await counts()).checks).toBe(before.checks + 1);
  });
});
