import type { CommissionFile } from '@kyfw/contracts';
import { Button } from 'antd';
import { formatBytes } from '../../payment';
import { commissionTexts as T } from '../texts';

/** A commission's files with 下载 each (the client's and the operators' downloads alike). */
export function CommissionFiles({
  files,
  onDownload,
  busyId,
  primary = false,
  emptyText,
}: {
  files: readonly CommissionFile[];
  onDownload: (file: CommissionFile) => void;
  /** The file whose download is on its way. */
  busyId?: string;
  primary?: boolean;
  emptyText: string;
}) {
  if (files.length === 0) return <p className="muted">{emptyText}</p>;
  return (
    <ul className="commission-files">
      {files.map((f) => (
        <li key={f.fileId}>
          <span>{f.fileName}</span>
          <span className="muted">{formatBytes(f.bytes)}</span>
          <Button
            size="small"
            type={primary ? 'primary' : 'default'}
            loading={busyId === f.fileId}
            onClick={() => onDownload(f)}
          >
            {T.download}
          </Button>
        </li>
      ))}
    </ul>
  );
}
