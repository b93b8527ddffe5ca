import fastifyCookie from '@fastify/cookie';
import {
  type AdminGoods,
  ErrorCode,
  FREE_ENTITLEMENT_TEXTS,
  freeEntitlementFor,
  goodsAdminApi,
  type StaffRoleName,
} from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { formatFenAsYuan } from '../../providers/payment/index.ts';
import type { ConsoleModuleService } from '../console/index.ts';
import {
  deleteGoods,
  type GoodsFields,
  goodsUses,
  insertGoods,
  listAllGoods,
  replaceGoodsFields,
  updateGoods,
} from './goods.repo.ts';
import { SERVICE_TYPE_TEXTS } from './orders.texts.ts';

/**
 * Goods and prices in the console (docs/api/operator.md, "Goods and prices"). Only 管理员 changes
 * the catalogue; 财务 may read it (prices are a commercial decision, finance handles the money
 * that follows: docs/decisions/0020). The goods are read from the database on every request by
 * every process (no cache), so a new price is what the next user sees; orders keep the price they
 * were sold at (orders.unit_price_fen and amount_fen are a snapshot).
 */
const EDIT: readonly StaffRoleName[] = ['admin'];
const READ: readonly StaffRoleName[] = ['admin', 'finance'];

export const GOODS_TEXTS = {
  notFound: '商品不存在',
  idTaken: (id: string) => `商品编号 ${id} 已存在，请换一个编号`,
  typeFixed: '已有商品不能更改服务类型；如需其他类型，请新建商品',
  noFreeRule: (type: string) => `「${type}」商品没有免费使用，不能设置免费规则`,
  wrongEntitlement: (want: string) => `该商品只能使用「${want}」作为免费规则`,
  freeCapOnlyCheck: '只有查重、AIGC检测商品可以设置免费字数上限',
  freeCapRange: (min: number, max: number) => `免费字数上限须在 ${min}–${max} 之间`,
  inUse: (n: number) => `已有 ${n} 个订单或任务使用该商品，不能删除；如需停售请下架`,
  created: '商品已创建并上架',
  saved: '商品已保存，新价格立即生效；已下的订单保持原价',
  listed: '商品已上架',
  unlisted: '商品已下架，用户将看不到也不能购买',
  deleted: '商品已删除',
} as const;

type Listed = Awaited<ReturnType<typeof listAllGoods>>[number];

function toAdminGoods(g: Listed): AdminGoods {
  const rule = g.freeRule as { entitlement?: string; maxQuantity?: number; text?: string } | null;
  return {
    goodsId: g.id,
    serviceType: g.serviceType,
    serviceTypeText: SERVICE_TYPE_TEXTS[g.serviceType],
    name: g.name,
    description: g.description,
    unitPriceFen: g.unitPriceFen,
    unitPrice: formatFenAsYuan(g.unitPriceFen),
    unitSize: g.unitSize,
    unit: g.unit,
    minQuantity: g.minQuantity,
    maxQuantity: g.maxQuantity,
    freeRule:
      rule && typeof rule.entitlement === 'string' && rule.entitlement in FREE_ENTITLEMENT_TEXTS
        ? {
            entitlement: rule.entitlement as keyof typeof FREE_ENTITLEMENT_TEXTS,
            maxQuantity: typeof rule.maxQuantity === 'number' ? rule.maxQuantity : null,
            text: rule.text ?? '',
          }
        : null,
    turnaroundDays: g.turnaroundDays,
    active: g.active,
    sortOrder: g.sortOrder,
    orders: g.orders,
    updatedAt: g.updatedAt.toISOString(),
  };
}

async function findAdminGoods(db: Kysely<Database>, id: string): Promise<AdminGoods | undefined> {
  const found = (await listAllGoods(db)).find((g) => g.id === id);
  return found ? toAdminGoods(found) : undefined;
}

type SaveBody = {
  goodsId: string;
  serviceType: GoodsFields['serviceType'];
  name: string;
  description: string;
  unitPrice: number;
  unitSize: number;
  unit: string;
  minQuantity: number;
  maxQuantity: number;
  sortOrder: number;
  turnaroundDays: number | null;
  freeRule: { entitlement: string; maxQuantity: number | null; text: string } | null;
};

/** The stored fields of a save, or a Chinese refusal when the free rule does not fit the goods. */
function fieldsOf(body: SaveBody, freeMaxChars: number): GoodsFields {
  const rule = body.freeRule;
  if (rule) {
    const want = freeEntitlementFor(body.serviceType, body.goodsId);
    if (!want)
      throw new AppError(ErrorCode.VALIDATION, GOODS_TEXTS.noFreeRule(SERVICE_TYPE_TEXTS[body.serviceType]));
    if (rule.entitlement !== want)
      throw new AppError(ErrorCode.VALIDATION, GOODS_TEXTS.wrongEntitlement(FREE_ENTITLEMENT_TEXTS[want]));
    if (rule.maxQuantity !== null && body.serviceType !== 'check')
      throw new AppError(ErrorCode.VALIDATION, GOODS_TEXTS.freeCapOnlyCheck);
    if (rule.maxQuantity !== null && rule.maxQuantity > freeMaxChars)
      throw new AppError(ErrorCode.VALIDATION, GOODS_TEXTS.freeCapRange(1, freeMaxChars));
  }
  return {
    serviceType: body.serviceType,
    name: body.name,
    description: body.description,
    unitPriceFen: body.unitPrice,
    unitSize: body.unitSize,
    unit: body.unit,
    minQuantity: body.minQuantity,
    maxQuantity: body.maxQuantity,
    sortOrder: body.sortOrder,
    turnaroundDays: body.turnaroundDays,
    freeRule: rule
      ? {
          entitlement: rule.entitlement,
          ...(rule.maxQuantity === null ? {} : { maxQuantity: rule.maxQuantity }),
          text: rule.text,
        }
      : null,
  };
}

/** What the audit log keeps of goods: every field a change can touch. */
const auditView = ({ orders: _o, updatedAt: _u, serviceTypeText: _t, ...g }: AdminGoods) => g;

export async function goodsConsoleRoutes(
  app: FastifyInstance,
  options: { db: Kysely<Database>; now: () => Date; freeMaxChars: number; console: ConsoleModuleService },
): Promise<void> {
  const { db, now } = options;
  await app.register(fastifyCookie);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  const { staffRoute } = options.console.staffRouting(app);
  const mustFind = async (id: string) => {
    const goods = await findAdminGoods(db, id);
    if (!goods) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, GOODS_TEXTS.notFound);
    return goods;
  };

  staffRoute(goodsAdminApi.goodsList, READ, 'goods.list', async () => ({
    data: (await listAllGoods(db)).map(toAdminGoods),
  }));

  staffRoute(goodsAdminApi.goodsCreate, EDIT, 'goods.create', async ({ body }) => {
    const fields = fieldsOf(body, options.freeMaxChars);
    if (!(await insertGoods(db, body.goodsId, fields, now())))
      throw new AppError(ErrorCode.CONFLICT, GOODS_TEXTS.idTaken(body.goodsId));
    const after = await mustFind(body.goodsId);
    return {
      data: after,
      message: GOODS_TEXTS.created,
      target: body.goodsId,
      before: null,
      after: auditView(after),
    };
  });

  staffRoute(goodsAdminApi.goodsUpdate, EDIT, 'goods.update', async ({ body }) => {
    const before = await mustFind(body.goodsId);
    if (before.serviceType !== body.serviceType)
      throw new AppError(ErrorCode.VALIDATION, GOODS_TEXTS.typeFixed);
    const fields = fieldsOf(body, options.freeMaxChars);
    if (!(await replaceGoodsFields(db, body.goodsId, fields, now())))
      throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, GOODS_TEXTS.notFound);
    const after = await mustFind(body.goodsId);
    return {
      data: after,
      message: GOODS_TEXTS.saved,
      target: body.goodsId,
      before: auditView(before),
      after: auditView(after),
    };
  });

  staffRoute(goodsAdminApi.goodsSetActive, EDIT, 'goods.setActive', async ({ body }) => {
    const before = await mustFind(body.goodsId);
    await updateGoods(db, body.goodsId, { active: body.active }, now());
    const after = await mustFind(body.goodsId);
    return {
      data: after,
      message: body.active ? GOODS_TEXTS.listed : GOODS_TEXTS.unlisted,
      target: body.goodsId,
      before: { active: before.active },
      after: { active: after.active },
    };
  });

  staffRoute(goodsAdminApi.goodsDelete, EDIT, 'goods.delete', async ({ body }) => {
    const before = await mustFind(body.goodsId);
    const uses = await goodsUses(db, body.goodsId);
    if (uses > 0) throw new AppError(ErrorCode.CONFLICT, GOODS_TEXTS.inUse(uses));
    try {
      await deleteGoods(db, body.goodsId);
    } catch (error) {
      // A row of another table naming it (foreign key 23503) arrived meanwhile.
      if ((error as { code?: string }).code === '23503')
        throw new AppError(ErrorCode.CONFLICT, GOODS_TEXTS.inUse(1));
      throw error;
    }
    return {
      data: null,
      message: GOODS_TEXTS.deleted,
      target: body.goodsId,
      before: auditView(before),
      after: null,
    };
  });
}
