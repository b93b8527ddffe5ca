import type {
  AdminGoods,
  BodyOf,
  FriendLinkAdmin,
  goodsAdminApi,
  SiteInfo,
  siteAdminApi,
} from '@kyfw/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../lib/query';
import { request } from '../../lib/request';

/** The paths of goodsAdminApi and siteAdminApi, written out so no zod enters the page. */
const GOODS = {
  goodsList: '/admin/goods/list',
  goodsCreate: '/admin/goods/create',
  goodsUpdate: '/admin/goods/update',
  goodsSetActive: '/admin/goods/setActive',
  goodsDelete: '/admin/goods/delete',
} as const satisfies Record<keyof typeof goodsAdminApi, string>;

const SITE = {
  siteGet: '/admin/site/get',
  siteSave: '/admin/site/save',
  siteQrUpload: '/admin/site/qrUpload',
  linkSave: '/admin/site/linkSave',
  linkDelete: '/admin/site/linkDelete',
} as const satisfies Record<keyof typeof siteAdminApi, string>;

const keys = { goods: ['goods-admin', 'goods'] as const, site: ['goods-admin', 'site'] as const };

export type GoodsInput = BodyOf<typeof goodsAdminApi.goodsCreate>;
export type SiteInput = BodyOf<typeof siteAdminApi.siteSave>;
export type LinkInput = BodyOf<typeof siteAdminApi.linkSave>;

export function useAdminGoods() {
  return useQuery({
    queryKey: keys.goods,
    queryFn: () => unwrap(request<AdminGoods[]>(GOODS.goodsList, {})),
  });
}

function useInvalidating<V, R>(key: readonly string[], fn: (v: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => queryClient.invalidateQueries({ queryKey: key }) });
}

/** Creates (`isNew`) or saves goods. */
export const useSaveGoods = () =>
  useInvalidating(keys.goods, ({ isNew, body }: { isNew: boolean; body: GoodsInput }) =>
    unwrap(request<AdminGoods>(isNew ? GOODS.goodsCreate : GOODS.goodsUpdate, { data: body })),
  );

export const useSetGoodsActive = () =>
  useInvalidating(keys.goods, (body: { goodsId: string; active: boolean }) =>
    unwrap(request<AdminGoods>(GOODS.goodsSetActive, { data: body })),
  );

export const useDeleteGoods = () =>
  useInvalidating(keys.goods, (goodsId: string) =>
    unwrap(request<null>(GOODS.goodsDelete, { data: { goodsId } })),
  );

export function useSite() {
  return useQuery({
    queryKey: keys.site,
    queryFn: () => unwrap(request<{ webInfo: SiteInfo; friendLinks: FriendLinkAdmin[] }>(SITE.siteGet, {})),
  });
}

export const useSaveSite = () =>
  useInvalidating(keys.site, (body: SiteInput) => unwrap(request<SiteInfo>(SITE.siteSave, { data: body })));

export const useSaveLink = () =>
  useInvalidating(keys.site, (body: LinkInput) =>
    unwrap(request<FriendLinkAdmin>(SITE.linkSave, { data: body })),
  );

export const useDeleteLink = () =>
  useInvalidating(keys.site, (id: string) => unwrap(request<null>(SITE.linkDelete, { data: { id } })));

/** Uploads a QR image; answers its address (saved with the site info). */
export function uploadSiteQr(file: File): Promise<{ url: string }> {
  const form = new FormData();
  form.append('file', file, file.name);
  return unwrap(request<{ url: string }>(SITE.siteQrUpload, { data: form, timeout: 60_000 }));
}
