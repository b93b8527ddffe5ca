import { COMMISSION_FILE_RULES } from '@kyfw/contracts';
import { Button, Upload, type UploadFile } from 'antd';
import { useState } from 'react';
import { unwrap } from '../../../lib/query';
import { toast } from '../../../stores/ui-store';
import { uploadCommissionFile } from '../api/upload-file';
import { commissionTexts as T } from '../texts';

/**
 * The form's attachments: each file is checked here (type, size, count) and uploaded at once to
 * /commission/uploadFile, where the server reads it as a document; the field's value is the ids.
 */
export function AttachmentsField({
  value = [],
  onChange,
  id,
}: {
  value?: string[];
  onChange?: (ids: string[]) => void;
  id?: string;
}) {
  const [files, setFiles] = useState<UploadFile[]>([]);
  const sync = (next: UploadFile[]) => {
    setFiles(next);
    onChange?.(next.filter((f) => f.status === 'done' && f.uid).map((f) => f.response as string));
  };
  return (
    <Upload
      id={id}
      accept={COMMISSION_FILE_RULES.accept}
      multiple
      fileList={files}
      beforeUpload={(file) => {
        const ext = /\.[^.]+$/.exec(file.name)?.[0]?.toLowerCase() ?? '';
        const problem = !(COMMISSION_FILE_RULES.extensions as readonly string[]).includes(ext)
          ? COMMISSION_FILE_RULES.unsupported
          : file.size > COMMISSION_FILE_RULES.maxBytes
            ? COMMISSION_FILE_RULES.tooLarge
            : value.length >= COMMISSION_FILE_RULES.maxFiles
              ? COMMISSION_FILE_RULES.tooMany
              : null;
        if (problem) {
          toast.error(problem);
          return Upload.LIST_IGNORE;
        }
        return true;
      }}
      customRequest={async ({ file, onSuccess, onError }) => {
        try {
          const uploaded = await unwrap(uploadCommissionFile(file as File));
          onSuccess?.(uploaded.fileId);
        } catch (error) {
          onError?.(error as Error);
        }
      }}
      onChange={({ fileList }) => sync(fileList.filter((f) => f.status !== 'error'))}
    >
      <Button>{T.fields.choose}</Button>
    </Upload>
  );
}
