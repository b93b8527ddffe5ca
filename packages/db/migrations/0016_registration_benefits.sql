-- What an account gets (issue 12, "Promises that are not kept"; spec §1: binding a phone or WeChat
-- gives a free similarity check, a free AIGC detection, an AI-writing trial and one-to-one service).
-- Decision: registering with a phone (verified by SMS) or creating the account by a WeChat scan
-- already binds that phone or WeChat, so the account earns the set then — once per account and once
-- per phone and WeChat, as before. A later binding of the other identifier grants nothing more.
alter table entitlements drop constraint entitlements_granted_by_check;
alter table entitlements
  add constraint entitlements_granted_by_check
  check (granted_by in ('phone_bind', 'wechat_bind', 'phone_register', 'wechat_register'));

-- The catalogue's free-use texts said 绑定手机号或微信后…, which a phone-registered account read as
-- "bind a phone"; every account now holds the set from its registration.
update goods
set free_rule = jsonb_set(free_rule, '{text}', '"注册即送免费查重一次（1万字以内）"')
where id = 'check_undergrad' and free_rule is not null;
update goods
set free_rule = jsonb_set(free_rule, '{text}', '"注册即送一次大纲生成试用"')
where id = 'ai_writing_dissertation' and free_rule is not null;
