import { DeleteOutlined, FileTextOutlined, InboxOutlined } from '@ant-design/icons';
import { CHECK_UPLOAD_RULES } from '@kyfw/contracts';
import { Alert, Button, Checkbox, Form, Input, Progress, Upload } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { RequestError } from '../../../lib/request';
import { useIsLoggedIn, useRequireLogin } from '../../auth';
import { useUploadFile } from '../api/upload-file';
import { ACCEPTED_EXTENSIONS, bytesToMb, extensionOf, formatCharLimit } from '../lib/format';
import { checkTexts as t } from '../texts';
import type { CheckGoods, UploadResult } from '../types';

/** 30 MB unless the goods say otherwise (the server states its limit with every product). */
const DEFAULT_MAX_BYTES = 30 * 1024 * 1024;

interface FormValues {
  title: string;
  author: string;
  addToLibrary: boolean;
  aigcAddon: boolean;
}

type Phase = { kind: 'idle' } | { kind: 'uploading'; percent: number } | { kind: 'parsing' };

/** Client-side checks before sending (the server checks the content again). */
export function checkFile(file: Pick<File, 'name' | 'size'>, maxBytes: number): string | null {
  if (!(ACCEPTED_EXTENSIONS as readonly string[]).includes(extensionOf(file.name))) return t.badExtension;
  if (file.size === 0) return t.emptyFile;
  if (file.size > maxBytes) return t.tooLarge(bytesToMb(maxBytes));
  return null;
}

function fileSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * 同时检测AIGC: the AIGC goods ordered with the similarity check, its price per 1,000 characters
 * from the server's goods list; what it adds to the report, and what it does to the free uses.
 */
function AigcAddonOption({ goods }: { goods: CheckGoods }) {
  const addon = goods.aigcAddon;
  if (!addon) return null;
  const freeCheck = goods.freeAvailable && goods.freeMaxChars !== null;
  return (
    <div className="ck-upload__addon" data-testid="aigc-addon">
      <Form.Item name="aigcAddon" valuePropName="checked" className="ck-upload__library">
        <Checkbox data-testid="aigc-addon-checkbox">{t.addon.option(addon.pricePerThousand)}</Checkbox>
      </Form.Item>
      <p className="ck-upload__addon-note">{t.addon.optionHint}</p>
      {freeCheck && (
        <p className="ck-upload__addon-note">
          {addon.freeAvailable ? t.addon.optionFreeBoth : t.addon.optionFreeOnlyCheck}
        </p>
      )}
    </div>
  );
}

export interface UploadFormProps {
  goods: CheckGoods | undefined;
  onUploaded: (result: UploadResult) => void;
}

/**
 * 上传论文: the drop area (.docx .doc .pdf .txt, the size limit stated), title and author, the
 * opt-in to the comparison library (off by default) with its promise, and the upload with real
 * progress, then the parsing wait. Needs a login (the guard opens the login dialog).
 */
export function UploadForm({ goods, onUploaded }: UploadFormProps) {
  const [form] = Form.useForm<FormValues>();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [uploadError, setUploadError] = useState<string | null>(null);
  const abortRef = useRef<AbortController | null>(null);
  const requireLogin = useRequireLogin();
  const loggedIn = useIsLoggedIn();
  const maxBytes = goods?.uploadMaxBytes ?? DEFAULT_MAX_BYTES;
  const upload = useUploadFile();
  const busy = upload.isPending;

  useEffect(() => () => abortRef.current?.abort(), []);

  const pick = (picked: File) => {
    const problem = checkFile(picked, maxBytes);
    setUploadError(null);
    if (problem) {
      setFile(null);
      setFileError(problem);
      return;
    }
    setFileError(null);
    // The title stays what the student typed: a file name ("thesis", "终稿2") is not a paper's title.
    setFile(picked);
  };

  const send = (values: FormValues, chosen: File, goodsId: string) => {
    const controller = new AbortController();
    abortRef.current = controller;
    setUploadError(null);
    setPhase({ kind: 'uploading', percent: 0 });
    upload.mutate(
      {
        input: {
          file: chosen,
          title: values.title.trim(),
          author: values.author.trim(),
          goodsId,
          addToLibrary: values.addToLibrary === true && goods?.kind !== 'aigc',
          aigcAddon: values.aigcAddon === true && goods?.aigcAddon != null,
        },
        options: {
          signal: controller.signal,
          onProgress: ({ percent }) => setPhase({ kind: 'uploading', percent }),
          onSent: () => setPhase({ kind: 'parsing' }),
        },
      },
      {
        onSuccess: (result) => onUploaded(result),
        onError: (error) => {
          if (!(error instanceof RequestError && error.kind === 'aborted'))
            setUploadError(error.message || t.uploadFailed);
        },
        onSettled: () => {
          abortRef.current = null;
          setPhase({ kind: 'idle' });
        },
      },
    );
  };

  const submit = async () => {
    if (busy) return;
    // Logged out: say so first (the form and the chosen file stay for after the login).
    if (!requireLogin()) return;
    let values: FormValues;
    try {
      values = await form.validateFields();
    } catch {
      if (!file) setFileError(t.fileRequired);
      return;
    }
    if (!goods) {
      setUploadError(t.goodsRequired);
      return;
    }
    if (!file) {
      setFileError(t.fileRequired);
      return;
    }
    send(values, file, goods.goodsId);
  };

  return (
    <div className="ck-upload">
      <Upload.Dragger
        accept={ACCEPTED_EXTENSIONS.join(',')}
        multiple={false}
        fileList={[]}
        showUploadList={false}
        disabled={busy}
        beforeUpload={(picked) => {
          pick(picked);
          return false;
        }}
        className={`ck-upload__drop${fileError ? ' has-error' : ''}`}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{file ? t.pickAnother : t.dragText}</p>
        <p className="ant-upload-hint">{t.dragHint(bytesToMb(maxBytes))}</p>
      </Upload.Dragger>
      {fileError && (
        <p className="ck-upload__error" role="alert">
          {fileError}
        </p>
      )}
      {file && (
        <div className="ck-upload__file" data-testid="picked-file">
          <FileTextOutlined />
          <span className="ck-upload__file-name">{file.name}</span>
          <span className="muted">{fileSize(file.size)}</span>
          {!busy && (
            <Button
              type="text"
              size="small"
              icon={<DeleteOutlined />}
              onClick={() => setFile(null)}
              aria-label={t.removeFile}
            />
          )}
        </div>
      )}

      <Form<FormValues>
        form={form}
        layout="vertical"
        className="ck-upload__form"
        initialValues={{ title: '', author: '', addToLibrary: false, aigcAddon: false }}
        disabled={busy}
        requiredMark
      >
        <div className="ck-upload__fields">
          <Form.Item
            name="title"
            label={t.titleLabel}
            rules={[
              { required: true, whitespace: true, message: t.titleRequired },
              { max: CHECK_UPLOAD_RULES.title.max, message: t.titleTooLong },
            ]}
          >
            <Input placeholder={t.titlePlaceholder} maxLength={CHECK_UPLOAD_RULES.title.max} />
          </Form.Item>
          <Form.Item
            name="author"
            label={t.authorLabel}
            rules={[
              { required: true, whitespace: true, message: t.authorRequired },
              { max: CHECK_UPLOAD_RULES.author.max, message: t.authorTooLong },
            ]}
          >
            <Input placeholder={t.authorPlaceholder} maxLength={CHECK_UPLOAD_RULES.author.max} />
          </Form.Item>
        </div>
        {goods?.kind === 'aigc' ? (
          // AIGC detection compares nothing and never adds the paper to the library.
          <p className="ck-upload__promise">{t.aigc.libraryPromise}</p>
        ) : (
          <>
            <Form.Item name="addToLibrary" valuePropName="checked" className="ck-upload__library">
              <Checkbox>{t.libraryOptIn}</Checkbox>
            </Form.Item>
            <p className="ck-upload__promise">{t.libraryPromise}</p>
          </>
        )}
        {goods?.kind !== 'aigc' && goods?.aigcAddon && <AigcAddonOption goods={goods} />}
      </Form>

      {uploadError && <Alert type="error" showIcon title={uploadError} className="ck-upload__alert" />}

      {phase.kind === 'uploading' && (
        <div className="ck-upload__progress" role="status">
          <Progress percent={phase.percent} status="active" />
          <span>{t.uploading}</span>
          <Button size="small" onClick={() => abortRef.current?.abort()}>
            {t.cancelUpload}
          </Button>
        </div>
      )}
      {phase.kind === 'parsing' && (
        <div className="ck-upload__progress" role="status">
          <Progress percent={100} status="active" showInfo={false} />
          <span>{t.parsing}</span>
        </div>
      )}

      <div className="ck-upload__submit">
        <Button type="primary" size="large" loading={busy} onClick={submit} data-testid="upload-submit">
          {t.upload}
        </Button>
        {!loggedIn && <span className="muted">{t.loginFirst}</span>}
        {goods?.freeMaxChars != null && goods.freeAvailable && (
          <span className="muted">
            {t.freeHeld(formatCharLimit(goods.freeMaxChars), goods.kind === 'aigc')}
          </span>
        )}
      </div>
    </div>
  );
}
