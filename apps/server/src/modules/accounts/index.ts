// The accounts module's entry: other modules and the app import it only from here
// (scripts/server-boundaries.ts).
export * from './accounts.module.ts';
export * from './accounts.service.ts';
export * from './auth.ts';
export * from './entitlements.service.ts';
