import { ErrorCode } from '@kyfw/contracts';
import { sql } from '@kyfw/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileStorage } from '../../src/lib/storage/index.ts';
import { registerUser, sendCode } from '../accounts/accounts-helper.ts';
import { MINUTE, spendFreeCheck } from '../orders/orders-helper.ts';
import { importSmallLibrary } from '../small-library.ts';
import {
  buildCheckApp,
  type CheckTestApp,
  call,
  grantFreeCheck,
  holdRowLock,
  lockWaiters,
  storedCheckFiles,
  upload,
  waitUntil,
} from './check-helper.ts';
import { buildTxt, libraryText } from './fixtures.ts';

// An upload racing the deletion of its account. The upload reads the session when the request
// arrives, then parses the paper (seconds for a long thesis) before it writes the order and the
// check; the account may be deleted meanwhile. Whatever the interleaving, once the deletion has
// committed the account has no order or check it did not deal with: an upload that comes after it
// is refused as from a logged-out user (1003) and leaves nothing behind, and one that committed
// first is seen whole by the deletion (its order cancelled, its check hidden).

const usesPostgres = Boolean(process.env.DATABASE_URL);

let t: CheckTestApp;
let seed = 1700;

beforeAll(async () => {
  t = await buildCheckApp();
  await importSmallLibrary(t);
});

afterAll(async () => {
  await t.close();
});

interface Account {
  phone: string;
  token: string;
  userId: string;
}

async function newAccount(): Promise<Account> {
  t.clock.advance(MINUTE);
  const { phone, token } = await registerUser(t);
  const info = await call<{ id: string }>(t, '/getUserInfo', {}, { token });
  await spendFreeCheck(t.db, info.data.id);
  return { phone, token, userId: info.data.id };
}

/** The SMS code of the deletion is fetched first, so the request itself is one transaction. */
async function deletionRequest(account: Account): Promise<() => Promise<{ code: number }>> {
  t.clock.advance(2 * MINUTE);
  const code = await sendCode(t, account.phone, '4', { token: account.token });
  return () => call(t, '/websiteUser/deleteAccount', { checkCode: code }, { token: account.token });
}

function uploadPaper(account: Account) {
  return upload(
    t,
    account.token,
    { bytes: buildTxt(libraryText(seed++, 3_000)), name: '论文.txt' },
    { title: `论文${seed}` },
  );
}

async function ordersOf(userId: string) {
  return t.db.selectFrom('orders').select(['id', 'status']).where('user_id', '=', userId).execute();
}

async function checksOf(userId: string) {
  return t.db.selectFrom('checks').select(['id', 'hidden_at']).where('user_id', '=', userId).execute();
}

/** Holds every upload after its paper is parsed, before its records are written. */
function holdUploadsAfterParsing() {
  const real: FileStorage = t.check.storage;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let reached!: () => void;
  const parsed = new Promise<void>((resolve) => {
    reached = resolve;
  });
  t.check.storage = {
    ...real,
    async put(key, data) {
      if (key.endsWith('/text.json')) {
        reached();
        await gate;
      }
      return real.put(key, data);
    },
  };
  return {
    parsed,
    release() {
      release();
      t.check.storage = real;
    },
  };
}

describe('an upload racing the deletion of its account', () => {
  for (const kind of ['paid', 'free'] as const) {
    it(`the deletion commits while the upload parses (${kind} check): the upload is refused and leaves nothing`, async () => {
      const account = await newAccount();
      if (kind === 'free') await grantFreeCheck(t, account.userId);
      const deleteAccount = await deletionRequest(account);
      const filesBefore = storedCheckFiles(t);

      const hold = holdUploadsAfterParsing();
      let uploaded: ReturnType<typeof uploadPaper>;
      try {
        uploaded = uploadPaper(account);
        await hold.parsed;
        expect(await deleteAccount()).toMatchObject({ code: 0 });
      } finally {
        hold.release();
      }
      expect(await uploaded).toMatchObject({ code: ErrorCode.UNAUTHORIZED, message: '请先登录', data: null });

      expect(await ordersOf(account.userId)).toEqual([]);
      expect(await checksOf(account.userId)).toEqual([]);
      expect(storedCheckFiles(t)).toEqual(filesBefore);
      // The old session is refused everywhere.
      expect((await uploadPaper(account)).code).toBe(ErrorCode.UNAUTHORIZED);
      expect(
        (await call(t, '/freeCheck/orderList', { page: 1, pageSize: 10 }, { token: account.token })).code,
      ).toBe(ErrorCode.UNAUTHORIZED);
    });
  }

  it('uploads and deletions started together, at several lags: never a record the deletion did not deal with', async () => {
    for (const lagMs of [0, 5, 20, 60]) {
      const account = await newAccount();
      const deleteAccount = await deletionRequest(account);
      const later = <T>(ms: number, run: () => Promise<T>) =>
        new Promise((resolve) => setTimeout(resolve, ms)).then(run);
      const [uploaded, deleted] = await Promise.all([uploadPaper(account), later(lagMs, deleteAccount)]);
      expect(deleted).toMatchObject({ code: 0 });
      expect([0, ErrorCode.UNAUTHORIZED]).toContain(uploaded.code);
      // Nothing of the account is left pending or visible.
      expect((await ordersOf(account.userId)).filter((o) => o.status === 'pending_payment')).toEqual([]);
      expect((await checksOf(account.userId)).filter((c) => c.hidden_at === null)).toEqual([]);
      if (uploaded.code === 0)
        expect(await ordersOf(account.userId)).toMatchObject([{ status: 'cancelled' }]);
      else expect(await ordersOf(account.userId)).toEqual([]);
    }
  });
});

// On a real PostgreSQL server the two transactions can overlap (on PGlite, one session, they never
// do): the upload's transaction is under way — held by a third session on the goods row its order
// refers to — when the deletion starts. The deletion waits for it, then deals with its records.
if (usesPostgres) {
  describe('an upload transaction under way when the deletion starts (PostgreSQL)', () => {
    it('the deletion waits for the upload and cancels its order, hides its check', async () => {
      const account = await newAccount();
      const deleteAccount = await deletionRequest(account);

      const holder = await holdRowLock(t, (tx) =>
        sql`select id from goods where id = 'check_undergrad' for update`.execute(tx),
      );

      let uploaded: ReturnType<typeof uploadPaper>;
      let deleted: Promise<{ code: number }>;
      try {
        uploaded = uploadPaper(account);
        await waitUntil(async () => (await lockWaiters(t)) >= 1, 'the upload to wait on the goods row');
        let deletionDone = false;
        deleted = deleteAccount().finally(() => {
          deletionDone = true;
        });
        await waitUntil(
          async () => deletionDone || (await lockWaiters(t)) >= 2,
          'the deletion to wait, or to finish',
        );
      } finally {
        await holder.release();
      }

      expect(await uploaded).toMatchObject({ code: 0 });
      expect(await deleted).toMatchObject({ code: 0 });
      expect(await ordersOf(account.userId)).toMatchObject([{ status: 'cancelled' }]);
      const checks = await checksOf(account.userId);
      expect(checks).toHaveLength(1);
      expect(checks[0]?.hidden_at).not.toBeNull();
    });
  });
}
