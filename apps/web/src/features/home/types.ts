// The home API's wire types come from the contracts (packages/contracts/src/api/home.ts).
export type { Benefit, FriendLink, HomeInfo, SiteInfo as WebInfo } from '@kyfw/contracts';
