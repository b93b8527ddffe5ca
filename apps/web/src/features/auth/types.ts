// The accounts API's wire types come from the contracts (packages/contracts/src/api/accounts.ts).
export type {
  Entitlement,
  EntitlementKind,
  Gender,
  QrCode,
  SmsPurpose,
  UserInfo,
} from '@kyfw/contracts';
