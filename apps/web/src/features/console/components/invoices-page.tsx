import { type ConsoleInvoice, INVOICE_ISSUE_MODES, staffCan } from '@kyfw/contracts';
import {
  Alert,
  Button,
  Card,
  Form,
  Input,
  Modal,
  Popconfirm,
  Radio,
  Space,
  Table,
  Tabs,
  Tag,
  Upload,
} from 'antd';
import { useState } from 'react';
import {
  type InvoiceTab,
  invoiceFileUrl,
  useGenerateInvoice,
  useInvoiceSettings,
  useInvoices,
  useReverseInvoice,
  useSaveInvoiceSettings,
  useStaff,
  useUploadInvoice,
  useUploadReversalPdf,
} from '../api/console-api';
import { consoleTexts } from '../texts';

const t = consoleTexts.invoices;
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('zh-CN') : '');
const yuan = (fen: number) => (fen / 100).toFixed(2);

/** Invoices to issue (generate the PDF, or attach the real one), issued ones, and those needing 红冲. */
export function InvoicesPage() {
  const [tab, setTab] = useState<InvoiceTab>('requested');
  const { data, isPending } = useInvoices(tab);
  const staff = useStaff();
  const generate = useGenerateInvoice();
  const upload = useUploadInvoice();
  const reverse = useReverseInvoice();
  const uploadRed = useUploadReversalPdf();
  const [reversing, setReversing] = useState<ConsoleInvoice | null>(null);
  const [redFile, setRedFile] = useState<File | null>(null);
  const [form] = Form.useForm<{ note: string }>();
  const canIssue = staffCan(staff.data?.role, 'payments.manage');
  return (
    <Card title={consoleTexts.nav.invoices}>
      <IssueModeSetting canChange={canIssue} />
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as InvoiceTab)}
        items={Object.entries(t.tabs).map(([key, label]) => ({ key, label }))}
      />
      {tab === 'reversal' && (
        <Alert type="warning" showIcon message={t.reversalHint} style={{ marginBottom: 16 }} />
      )}
      <Table<ConsoleInvoice>
        rowKey="invoiceId"
        loading={isPending}
        locale={{ emptyText: t.empty }}
        dataSource={data ?? []}
        pagination={false}
        columns={[
          { title: t.invoiceNo, dataIndex: 'invoiceNo' },
          { title: t.title, dataIndex: 'title' },
          { title: t.taxpayerId, dataIndex: 'taxpayerId' },
          { title: t.email, dataIndex: 'email' },
          { title: t.amount, dataIndex: 'amount' },
          {
            title: t.orders,
            render: (_, i) =>
              i.orders.map((o) => (
                <div key={o.orderNo}>
                  {o.orderNo} {o.goodsName} {o.amount}
                  {o.refundedFen > 0 ? `（${o.statusText}，${t.refunded(yuan(o.refundedFen))}）` : ''}
                </div>
              )),
          },
          tab === 'requested'
            ? { title: t.createdAt, render: (_, i) => when(i.createdAt) }
            : { title: t.issuedAt, render: (_, i) => when(i.issuedAt) },
          {
            title: '',
            render: (_, i) =>
              i.status === 'issued' ? (
                <Space>
                  <a href={invoiceFileUrl(i.invoiceId)} target="_blank" rel="noreferrer">
                    {t.view}
                  </a>
                  {i.reversedAt && (
                    <Tag color="red" title={i.reversalNote ?? ''}>
                      {t.reversed(when(i.reversedAt))}
                    </Tag>
                  )}
                  {i.hasReversalPdf && (
                    <a href={invoiceFileUrl(i.invoiceId, true)} target="_blank" rel="noreferrer">
                      {t.reversalView}
                    </a>
                  )}
                  {i.reversedAt && !i.hasReversalPdf && canIssue && (
                    <Upload
                      accept="application/pdf,.pdf"
                      showUploadList={false}
                      beforeUpload={(file) => {
                        uploadRed.mutate({ invoiceId: i.invoiceId, file });
                        return false;
                      }}
                    >
                      <Button size="small" danger>
                        {t.reversalUpload}
                      </Button>
                    </Upload>
                  )}
                  {tab === 'reversal' && canIssue && (
                    <Button size="small" type="primary" danger onClick={() => setReversing(i)}>
                      {t.reverse}
                    </Button>
                  )}
                </Space>
              ) : canIssue ? (
                <Space>
                  <Popconfirm
                    title={t.generateConfirm}
                    onConfirm={() => generate.mutate({ invoiceId: i.invoiceId })}
                  >
                    <Button size="small" type="primary">
                      {t.generate}
                    </Button>
                  </Popconfirm>
                  <Upload
                    accept="application/pdf,.pdf"
                    showUploadList={false}
                    beforeUpload={(file) => {
                      upload.mutate({ invoiceId: i.invoiceId, file });
                      return false;
                    }}
                  >
                    <Button size="small">{t.upload}</Button>
                  </Upload>
                </Space>
              ) : null,
          },
        ]}
      />
      <Modal
        open={reversing !== null}
        title={t.reverseTitle}
        okText={t.reverse}
        confirmLoading={reverse.isPending}
        onCancel={() => {
          setReversing(null);
          setRedFile(null);
        }}
        onOk={() =>
          form
            .validateFields()
            .then(({ note }) =>
              reverse.mutate(
                { invoiceId: reversing!.invoiceId, note },
                {
                  onSuccess: () => {
                    if (redFile) uploadRed.mutate({ invoiceId: reversing!.invoiceId, file: redFile });
                    setReversing(null);
                    setRedFile(null);
                    form.resetFields();
                  },
                },
              ),
            )
            // The form shows what is missing.
            .catch(() => undefined)
        }
        destroyOnHidden
      >
        {reversing && (
          <p>
            {t.invoiceNo}：{reversing.invoiceNo}，{t.amount}：{reversing.amount}
          </p>
        )}
        <Form form={form} layout="vertical" preserve={false}>
          <Form.Item
            name="note"
            label={t.reverseNote}
            rules={[{ required: true, whitespace: true, message: t.reverseNoteRequired }]}
          >
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item label={t.reversalFile}>
            <Upload
              accept="application/pdf,.pdf"
              maxCount={1}
              fileList={redFile ? [{ uid: 'red', name: redFile.name, status: 'done' }] : []}
              onRemove={() => setRedFile(null)}
              beforeUpload={(file) => {
                setRedFile(file);
                return false;
              }}
            >
              <Button>{t.reversalFileChoose}</Button>
            </Upload>
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}

/** 开票方式: issue at once, or after finance's review (all, or 企业 titles only; the default). */
function IssueModeSetting({ canChange }: { canChange: boolean }) {
  const settings = useInvoiceSettings();
  const save = useSaveInvoiceSettings();
  const current = settings.data;
  return (
    <section className="invoice-mode" aria-label={t.mode.label}>
      <h4>{t.mode.label}</h4>
      <Radio.Group
        value={current?.issueMode}
        disabled={!canChange || !current || save.isPending}
        onChange={(e) => save.mutate({ issueMode: e.target.value })}
      >
        <Space direction="vertical">
          {INVOICE_ISSUE_MODES.map((mode) => (
            <Radio key={mode} value={mode}>
              {t.mode.options[mode]}
            </Radio>
          ))}
        </Space>
      </Radio.Group>
      <p className="muted">
        {t.mode.hint}
        {current?.updatedBy && current.updatedAt
          ? ` ${t.mode.updated(current.updatedBy, when(current.updatedAt))}`
          : ''}
        {canChange ? '' : ` ${t.mode.readOnly}`}
      </p>
    </section>
  );
}
