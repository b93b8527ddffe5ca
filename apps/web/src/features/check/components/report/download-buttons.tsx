import { DownloadOutlined, FileZipOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { toast } from '../../../../stores/ui-store';
import { useDownloadReport } from '../../api/download-report';
import { checkTexts as t } from '../../texts';
import type { ReportFormat } from '../../types';

const FORMATS: ReportFormat[] = ['pdf', 'marked', 'html', 'zip'];

/** 下载报告: PDF, 全文标明引文 PDF, HTML and the zip package (an AIGC report: its PDF only). */
export function DownloadButtons({
  orderId,
  title,
  size = 'middle',
  formats = FORMATS,
}: {
  orderId: string;
  title: string;
  size?: 'small' | 'middle';
  formats?: readonly ReportFormat[];
}) {
  const download = useDownloadReport();
  const busy = download.isPending ? download.variables.format : null;
  return (
    <Space wrap size={8} className="rt-downloads">
      {formats.map((format) => (
        <Button
          key={format}
          size={size}
          type={format === 'pdf' ? 'primary' : 'default'}
          icon={format === 'zip' ? <FileZipOutlined /> : <DownloadOutlined />}
          loading={busy === format}
          disabled={busy !== null && busy !== format}
          onClick={() =>
            download.mutate({ orderId, format, title }, { onSuccess: () => toast.success(t.downloaded) })
          }
        >
          {t.formats[format]}
        </Button>
      ))}
    </Space>
  );
}
