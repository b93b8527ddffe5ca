import fastifyCookie from '@fastify/cookie';
import {
  ACCOUNT_REQUEST_TEXTS,
  type AccountRequest,
  ErrorCode,
  FREE_ENTITLEMENT_TEXTS,
  type StaffRoleName,
  type UserDetail,
  userAdminApi,
} from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import type { ConsoleModuleService } from '../console/index.ts';
import { listAccountRequests } from './account-requests.repo.ts';
import { listEntitlementsOf } from './entitlements.repo.ts';
import { revokeUserSessions } from './sessions.repo.ts';

/**
 * The console's additions to 用户 (docs/api/operator.md, "Users: lock, entitlements, requests"):
 * an account's free uses and its export/deletion requests (管理员 and 客服 read them), and locking
 * an account (管理员 only: 客服 is read-only by the roles of issue 15; decision 0021). A locked
 * account cannot log in by any method (sessions.service startSession) and its sessions end at once.
 */
const READ: readonly StaffRoleName[] = ['admin', 'support'];
const LOCK: readonly StaffRoleName[] = ['admin'];

export const USERS_TEXTS = {
  notFound: '用户不存在',
  notActive: '该账号已注销或停用，无需锁定',
  alreadyLocked: '该账号已被锁定',
  notLocked: '该账号未被锁定',
  locked: '账号已锁定，其登录状态已全部失效',
  unlocked: '账号已解锁，用户可以重新登录',
} as const;

const STATUS_TEXTS: Record<string, string> = { active: '正常', closed: '已停用', deleted: '已注销' };
const GRANTED_BY_TEXTS: Record<string, string> = {
  phone_bind: '绑定手机号',
  wechat_bind: '绑定微信',
  phone_register: '手机号注册',
  wechat_register: '微信注册',
};

function toRequest(r: Awaited<ReturnType<typeof listAccountRequests>>['list'][number]): AccountRequest {
  return { ...r, kindText: ACCOUNT_REQUEST_TEXTS[r.kind], at: r.at.toISOString() };
}

async function userDetail(db: Kysely<Database>, userId: string): Promise<UserDetail> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'phone_number', 'status', 'locked_at', 'locked_reason'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, USERS_TEXTS.notFound);
  const [entitlements, requests] = await Promise.all([
    listEntitlementsOf(db, userId),
    listAccountRequests(db, { userId, page: 1, pageSize: 50 }),
  ]);
  return {
    userId: user.id,
    phone: user.phone_number,
    status: user.status,
    statusText: STATUS_TEXTS[user.status] ?? user.status,
    lockedAt: user.locked_at?.toISOString() ?? null,
    lockedReason: user.locked_reason,
    entitlements: entitlements.map((e) => ({
      kind: e.kind,
      kindText: FREE_ENTITLEMENT_TEXTS[e.kind] ?? e.kind,
      grantedByText: GRANTED_BY_TEXTS[e.grantedBy] ?? e.grantedBy,
      grantedAt: e.grantedAt.toISOString(),
      usedAt: e.usedAt?.toISOString() ?? null,
      usedFor: e.usedFor,
    })),
    requests: requests.list.map(toRequest),
  };
}

const lockView = (u: UserDetail) => ({ lockedAt: u.lockedAt, lockedReason: u.lockedReason });

export async function usersConsoleRoutes(
  app: FastifyInstance,
  options: { db: Kysely<Database>; now: () => Date; console: ConsoleModuleService },
): Promise<void> {
  const { db, now } = options;
  await app.register(fastifyCookie);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  const { staffRoute } = options.console.staffRouting(app);

  staffRoute(userAdminApi.userDetail, READ, 'users.detail', async ({ body }) => ({
    data: await userDetail(db, body.userId),
    target: body.userId,
  }));

  staffRoute(userAdminApi.userLock, LOCK, 'users.lock', async ({ body }) => {
    const before = await userDetail(db, body.userId);
    if (before.status !== 'active') throw new AppError(ErrorCode.CONFLICT, USERS_TEXTS.notActive);
    if (before.lockedAt) throw new AppError(ErrorCode.CONFLICT, USERS_TEXTS.alreadyLocked);
    const at = now();
    await db.transaction().execute(async (tx) => {
      const locked = await tx
        .updateTable('users')
        .set({ locked_at: at, locked_reason: body.reason, updated_at: at })
        .where('id', '=', body.userId)
        .where('status', '=', 'active')
        .where('locked_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      if (!locked) throw new AppError(ErrorCode.CONFLICT, USERS_TEXTS.alreadyLocked);
      await revokeUserSessions(tx, body.userId, 'account_locked', at);
    });
    const after = await userDetail(db, body.userId);
    return {
      data: after,
      message: USERS_TEXTS.locked,
      target: body.userId,
      before: lockView(before),
      after: lockView(after),
    };
  });

  staffRoute(userAdminApi.userUnlock, LOCK, 'users.unlock', async ({ body }) => {
    const before = await userDetail(db, body.userId);
    const unlocked = await db
      .updateTable('users')
      .set({ locked_at: null, locked_reason: null, updated_at: now() })
      .where('id', '=', body.userId)
      .where('locked_at', 'is not', null)
      .returning('id')
      .executeTakeFirst();
    if (!unlocked) throw new AppError(ErrorCode.CONFLICT, USERS_TEXTS.notLocked);
    const after = await userDetail(db, body.userId);
    return {
      data: after,
      message: USERS_TEXTS.unlocked,
      target: body.userId,
      before: lockView(before),
      after: lockView(after),
    };
  });

  staffRoute(userAdminApi.accountRequests, READ, 'users.requests', async ({ body }) => {
    const page = await listAccountRequests(db, body);
    return { data: { total: page.total, list: page.list.map(toRequest) } };
  });
}
