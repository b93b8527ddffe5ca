import { CheckCircleFilled, CopyOutlined, UploadOutlined } from '@ant-design/icons';
import { formatYuan } from '@kyfw/contracts';
import { Alert, Button, Spin } from 'antd';
import { useRef } from 'react';
import { toast } from '../../../stores/ui-store';
import { useOfflineInfo } from '../api/get-offline-info';
import { useUploadOfflineProof } from '../api/upload-offline-proof';
import { formatBytes, paymentTexts } from '../texts';
import type { OfflineInfo } from '../types';

const t = paymentTexts.offline;

const TYPE_NAMES: Record<string, string> = {
  'image/png': 'PNG',
  'image/jpeg': 'JPG',
  'image/webp': 'WebP',
  'application/pdf': 'PDF',
};

export interface OfflinePanelProps {
  orderId: string;
  orderNo: string | null;
  amount: string | null;
  /** A proof already waits for an operator (from the pay status). */
  pending: boolean;
  /** After a proof was accepted for review: poll the status now. */
  onUploaded: () => void;
}

/** 线下转账: the bank account, the amount and the order number for the remark, and the proof upload. */
export function OfflinePanel({ orderId, orderNo, amount, pending, onUploaded }: OfflinePanelProps) {
  const info = useOfflineInfo(true);
  const proof = useUploadOfflineProof();
  const uploading = proof.isPending;
  const uploaded = proof.isSuccess;
  const input = useRef<HTMLInputElement>(null);

  if (info.isPending) {
    return (
      <div className="pay-offline pay-offline--loading">
        <Spin size="small" /> {t.loading}
      </div>
    );
  }
  if (!info.data?.enabled) return <Alert type="info" showIcon title={t.disabled} />;
  const data: OfflineInfo = info.data;
  const maxText = formatBytes(data.proofMaxBytes);
  const typeText = data.proofTypes.map((type) => TYPE_NAMES[type] ?? type).join('、');

  function upload(file: File) {
    if (data.proofTypes.length > 0 && !data.proofTypes.includes(file.type)) {
      toast.error(t.badType);
      return;
    }
    if (file.size > data.proofMaxBytes) {
      toast.error(t.tooLarge(maxText));
      return;
    }
    proof.mutate(
      { orderId, file },
      {
        onSuccess: () => {
          toast.success(t.uploaded);
          onUploaded();
        },
      },
    );
  }

  const rows: { label: string; value: string; copy?: boolean }[] = [
    { label: t.bankName, value: data.bankName },
    { label: t.accountName, value: data.accountName, copy: true },
    { label: t.accountNo, value: data.accountNo, copy: true },
  ];
  if (amount) rows.push({ label: t.amount, value: formatYuan(amount) });
  if (orderNo) rows.push({ label: t.remark, value: t.remarkValue(orderNo), copy: true });

  return (
    <div className="pay-offline">
      <p className="pay-offline__intro">{t.intro}</p>
      <dl className="pay-offline__bank">
        {rows.map((row) => (
          <div key={row.label}>
            <dt>{row.label}</dt>
            <dd>
              <span className={row.copy ? 'pay-offline__mono' : undefined}>{row.value}</span>
              {row.copy && <CopyButton text={row.label === t.remark && orderNo ? orderNo : row.value} />}
            </dd>
          </div>
        ))}
      </dl>
      {data.note && <p className="pay-offline__note">{data.note}</p>}
      {pending || uploaded ? (
        <Alert type="success" showIcon icon={<CheckCircleFilled />} title={t.pending} />
      ) : (
        <div className="pay-offline__upload">
          <input
            ref={input}
            type="file"
            hidden
            accept={data.proofTypes.join(',')}
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) upload(file);
            }}
          />
          <Button icon={<UploadOutlined />} loading={uploading} onClick={() => input.current?.click()}>
            {uploading ? t.uploading : t.upload}
          </Button>
          <span className="muted">{t.uploadHint(typeText, maxText)}</span>
        </div>
      )}
    </div>
  );
}

function CopyButton({ text }: { text: string }) {
  return (
    <Button
      type="link"
      size="small"
      icon={<CopyOutlined />}
      aria-label={`${t.copy} ${text}`}
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(
          () => toast.success(t.copied),
          () => {},
        );
      }}
    >
      {t.copy}
    </Button>
  );
}
