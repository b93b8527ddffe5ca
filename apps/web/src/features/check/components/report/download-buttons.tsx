import { DownloadOutlined, FileZipOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useState } from 'react';
import { saveFile } from '../../../../lib/save-file';
import { toast } from '../../../../stores/ui-store';
import { downloadReport } from '../../api/download-report';
import { checkTexts as t } from '../../texts';
import type { ReportFormat } from '../../types';

const FORMATS: ReportFormat[] = ['pdf', 'marked', 'html', 'zip'];
const EXTENSIONS: Record<ReportFormat, string> = { pdf: 'pdf', marked: 'pdf', html: 'html', zip: 'zip' };
const SUFFIX: Record<ReportFormat, string> = {
  pdf: '检测报告',
  marked: '全文标明引文',
  html: '检测报告',
  zip: '检测报告全套',
};

/** The file name when the answer carries none (the server sends a Chinese one). */
export function fallbackFileName(title: string, format: ReportFormat): string {
  const base =
    title
      .replace(/[\\/:*?"<>|\r\n]+/g, ' ')
      .trim()
      .slice(0, 60) || '论文';
  return `${base}-${SUFFIX[format]}.${EXTENSIONS[format]}`;
}

/** Fetches one report file as a blob and saves it under its Chinese name. */
export async function downloadAndSave(
  orderId: string,
  format: ReportFormat,
  title: string,
): Promise<boolean> {
  const [error, file] = await downloadReport(orderId, format);
  if (error || !file) return false;
  saveFile(file.blob, file.filename ?? fallbackFileName(title, format));
  return true;
}

/** 下载报告: PDF, 全文标明引文 PDF, HTML and the zip package. */
export function DownloadButtons({
  orderId,
  title,
  size = 'middle',
}: {
  orderId: string;
  title: string;
  size?: 'small' | 'middle';
}) {
  const [busy, setBusy] = useState<ReportFormat | null>(null);
  const run = async (format: ReportFormat) => {
    setBusy(format);
    try {
      if (await downloadAndSave(orderId, format, title)) toast.success(t.downloaded);
    } finally {
      setBusy(null);
    }
  };
  return (
    <Space wrap size={8} className="rt-downloads">
      {FORMATS.map((format) => (
        <Button
          key={format}
          size={size}
          type={format === 'pdf' ? 'primary' : 'default'}
          icon={format === 'zip' ? <FileZipOutlined /> : <DownloadOutlined />}
          loading={busy === format}
          disabled={busy !== null && busy !== format}
          onClick={() => run(format)}
        >
          {t.formats[format]}
        </Button>
      ))}
    </Space>
  );
}
