import { z } from 'zod';
import { endpoint } from './endpoint.ts';

/** The public home API (spec §3 Home info, §7 /home/homeInfo). */

export const siteInfoSchema = z.object({
  name: z.string(),
  contactPhone: z.string(),
  companyAddress: z.string(),
  qrCode: z.string(),
  recordNumber: z.string(),
  copyright: z.string(),
});
export type SiteInfo = z.output<typeof siteInfoSchema>;

export const friendLinkSchema = z.object({ name: z.string(), url: z.string() });
export type FriendLink = z.output<typeof friendLinkSchema>;

/** What registration gives; `available: false` is shown as 即将开放. */
export const benefitSchema = z.object({
  kind: z.enum(['free_check', 'free_aigc_detection', 'ai_writing_trial', 'online_support']),
  available: z.boolean(),
});
export type Benefit = z.output<typeof benefitSchema>;

export const homeInfoSchema = z.object({
  webInfo: siteInfoSchema,
  friendLinkList: z.array(friendLinkSchema),
  benefits: z.array(benefitSchema),
});
export type HomeInfo = z.output<typeof homeInfoSchema>;

export const homeApi = {
  homeInfo: endpoint({ method: 'GET', path: '/home/homeInfo', data: homeInfoSchema }),
} as const;
