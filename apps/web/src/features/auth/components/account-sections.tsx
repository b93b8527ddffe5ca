import {
  DeleteOutlined,
  DownloadOutlined,
  GiftOutlined,
  MobileOutlined,
  WechatOutlined,
} from '@ant-design/icons';
import { formatDate } from '@kyfw/contracts';
import { Button, Tag } from 'antd';
import { useState } from 'react';
import { toast, uiActions } from '../../../stores/ui-store';
import { useExportMyData } from '../api/export-data';
import { authTexts, infoTexts, maskPhone } from '../texts';
import type { Entitlement, UserInfo } from '../types';
import { DeleteAccountDialog } from './delete-account-dialog';
import '../auth.css';

/** 'YYYY-MM-DD HH:mm', or '' for a missing/invalid date. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  try {
    return formatDate(value, 'YYYY-MM-DD HH:mm');
  } catch {
    return '';
  }
}

/** Phone and WeChat bindings with 绑定 buttons opening the dialogs. */
export function AccountSection({ user }: { user: UserInfo }) {
  return (
    <>
      <div className="info-bindings">
        <div className="info-binding">
          <span className="info-binding__icon">
            <MobileOutlined />
          </span>
          <span className="info-binding__main">
            <span className="info-binding__label">{authTexts.phone}</span>
            <span className="info-binding__value" data-testid="binding-phone">
              {user.phoneNumber ? maskPhone(user.phoneNumber) : authTexts.notBound}
            </span>
          </span>
          {user.phoneNumber ? (
            <Tag color="success">{authTexts.bound}</Tag>
          ) : (
            <Button type="primary" ghost onClick={() => uiActions.openBindPhoneModal()}>
              {authTexts.bindPhoneTitle}
            </Button>
          )}
        </div>
        <div className="info-binding">
          <span className="info-binding__icon info-binding__icon--wx">
            <WechatOutlined />
          </span>
          <span className="info-binding__main">
            <span className="info-binding__label">{authTexts.wechat}</span>
            <span className="info-binding__value" data-testid="binding-wechat">
              {user.wxOpenId ? authTexts.bound : authTexts.notBound}
            </span>
          </span>
          {user.wxOpenId ? (
            <Tag color="success">{authTexts.bound}</Tag>
          ) : (
            <Button type="primary" ghost onClick={() => uiActions.openBindWxModal()}>
              {authTexts.bindWxTitle}
            </Button>
          )}
        </div>
      </div>
      <div className="info-meta">
        <span>
          {infoTexts.accountId}：{String(user.id)}
        </span>
        {user.createdAt && (
          <span>
            {infoTexts.createdAt}：{formatDateTime(user.createdAt)}
          </span>
        )}
        {user.phoneNumber && (
          <span>
            {infoTexts.passwordSet}：
            {user.hasPassword === false
              ? `${infoTexts.passwordNo}（${infoTexts.setPasswordHint}）`
              : infoTexts.passwordYes}
          </span>
        )}
      </div>
    </>
  );
}

const KIND_ORDER = ['free_check', 'free_aigc_detection', 'ai_writing_trial'];

function kindRank(kind: string): number {
  const rank = KIND_ORDER.indexOf(kind);
  return rank === -1 ? KIND_ORDER.length : rank;
}

function EntitlementTag({ item }: { item: Entitlement }) {
  if (item.comingSoon) return <Tag color="blue">{infoTexts.comingSoon}</Tag>;
  if (item.available) return <Tag color="gold">{infoTexts.available}</Tag>;
  return <Tag>{infoTexts.used}</Tag>;
}

/** The free services the account got at registration (or its first binding), used or not. */
export function EntitlementsSection({ user }: { user: UserInfo }) {
  const entitlements = [...(user.entitlements ?? [])].sort((a, b) => kindRank(a.kind) - kindRank(b.kind));
  if (entitlements.length === 0 && user.entitlementsEarnedBefore === true) {
    return (
      <div className="notice info-entitlements__empty">
        <p>
          <GiftOutlined /> {infoTexts.entitlementsEarnedBefore}
        </p>
      </div>
    );
  }
  if (entitlements.length === 0) {
    return (
      <div className="notice info-entitlements__empty">
        <p>
          <GiftOutlined /> {infoTexts.entitlementsEmpty}
        </p>
      </div>
    );
  }
  return (
    <>
      <ul className="info-entitlements" aria-label={infoTexts.entitlementsSection}>
        {entitlements.map((item) => (
          <li
            key={`${item.kind}-${item.grantedAt}`}
            className={item.available || item.comingSoon ? 'info-entitlement' : 'info-entitlement is-used'}
          >
            <div className="info-entitlement__name">
              <GiftOutlined className="info-entitlement__icon" />
              {infoTexts.entitlementKinds[item.kind] ?? item.kind}
            </div>
            <div className="info-entitlement__meta">
              <EntitlementTag item={item} />
              {item.usedAt
                ? infoTexts.usedAt(formatDateTime(item.usedAt))
                : (infoTexts.grantedBy[item.grantedBy] ?? '')}
            </div>
          </li>
        ))}
      </ul>
      <p className="info-note">{infoTexts.entitlementsNote}</p>
    </>
  );
}

/** 导出我的数据 (JSON download) and 注销账号. */
export function DataSection() {
  const exportData = useExportMyData();
  const [deleting, setDeleting] = useState(false);
  const onExport = () =>
    exportData.mutate(undefined, { onSuccess: () => toast.success(infoTexts.exportDone) });
  return (
    <div className="info-data">
      <div className="info-data__item">
        <strong>{infoTexts.exportTitle}</strong>
        <p>{infoTexts.exportText}</p>
        <Button icon={<DownloadOutlined />} loading={exportData.isPending} onClick={onExport}>
          {infoTexts.exportButton}
        </Button>
      </div>
      <div className="info-data__item info-data__item--danger">
        <strong>{infoTexts.deleteTitle}</strong>
        <p>{infoTexts.deleteText}</p>
        <Button danger icon={<DeleteOutlined />} onClick={() => setDeleting(true)}>
          {infoTexts.deleteButton}
        </Button>
      </div>
      <DeleteAccountDialog open={deleting} onClose={() => setDeleting(false)} />
    </div>
  );
}
