-- Free services are earned once per phone number and once per WeChat account, not once per
-- account (accounts README, "Entitlements"): deleting an account and registering again with the
-- same phone or WeChat must not earn them again.
--
-- When an account that holds the binding's free services is deleted or closed, its phone number and
-- WeChat openid are erased as personal data; what stays is this keyed one-way digest of each:
-- HMAC-SHA256 under a server secret that is never stored in the database (ACCOUNT_DIGEST_SECRET, or
-- DATA_DIR/secrets/account-digest.key), over "phone:<number>" or "wechat:<openid>". The digest
-- alone names nobody and cannot be reversed or tested against candidate numbers without the secret;
-- the server only computes the digest of an identifier it is given (a new binding) and looks it up.
-- No user id, no dates of the account, nothing else is kept with it (legitimate interest: preventing
-- the repeated claiming of free services; docs/api/accounts.md, "Account deletion").
create table entitlement_grant_digests (
  digest text primary key check (digest ~ '^[0-9a-f]{64}$'),
  kind text not null check (kind in ('phone', 'wechat')),
  recorded_at timestamptz not null default now()
);
