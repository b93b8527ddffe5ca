import { formatYuan, isValidCreditCode, normalizeCreditCode } from '@kyfw/contracts';
import { Button, Form, Input, Radio } from 'antd';
import { useEffect } from 'react';
import { BaseModal } from '../../../components/ui/base-modal';
import { useCreateInvoice } from '../api/create-invoice';
import { invoiceTexts as t } from '../texts';
import type { Invoice, InvoiceTitleType } from '../types';

interface FormValues {
  titleType: InvoiceTitleType;
  title: string;
  taxpayerId?: string;
  email: string;
}

// The server checks e-mail with zod's rule; this one is close enough to catch typos first.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Form validation of the invoice request; exported for tests. Returns the first message or null. */
export function validateInvoiceForm(values: Partial<FormValues>): string | null {
  if (!values.title?.trim()) return t.errors.title;
  if (values.titleType === 'company') {
    if (!values.taxpayerId?.trim()) return t.errors.taxpayerIdRequired;
    if (!isValidCreditCode(values.taxpayerId)) return t.errors.taxpayerId;
  } else if (values.taxpayerId?.trim() && !isValidCreditCode(values.taxpayerId)) {
    return t.errors.taxpayerId;
  }
  if (!values.email?.trim()) return t.errors.email;
  if (!EMAIL.test(values.email.trim())) return t.errors.emailInvalid;
  return null;
}

/** 申请电子发票 for the selected orders: title type, title, taxpayer ID (company), e-mail. */
export function InvoiceFormModal({
  open,
  orderIds,
  amount,
  onClose,
  onCreated,
}: {
  open: boolean;
  orderIds: string[];
  /** The selected orders' total in yuan. */
  amount: number;
  onClose: () => void;
  onCreated: (invoice: Invoice) => void;
}) {
  const [form] = Form.useForm<FormValues>();
  const create = useCreateInvoice();
  const titleType = Form.useWatch('titleType', form) ?? 'personal';

  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);

  function submit(values: FormValues) {
    const taxpayerId = values.taxpayerId ? normalizeCreditCode(values.taxpayerId) : '';
    create.mutate(
      {
        orderIds,
        titleType: values.titleType,
        title: values.title.trim(),
        ...(taxpayerId ? { taxpayerId } : {}),
        email: values.email.trim(),
      },
      { onSuccess: (invoice) => onCreated(invoice) },
    );
  }

  return (
    <BaseModal
      open={open}
      onClose={onClose}
      title={t.formTitle}
      width={560}
      className="invoice-form-modal"
      footer={
        <>
          <Button onClick={onClose}>{t.cancel}</Button>
          <Button type="primary" loading={create.isPending} onClick={() => form.submit()}>
            {t.submit}
          </Button>
        </>
      }
    >
      <Form<FormValues>
        form={form}
        layout="horizontal"
        labelCol={{ flex: '108px' }}
        initialValues={{ titleType: 'personal', title: '', taxpayerId: '', email: '' }}
        onFinish={submit}
        className="invoice-form"
      >
        <Form.Item label={t.amount}>
          <strong className="invoice-form__amount">{formatYuan(amount)}</strong>
          <span className="muted">（{orderIds.length} 个订单）</span>
        </Form.Item>
        <Form.Item name="titleType" label={t.titleType} required>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'personal', label: t.titleTypes.personal },
              { value: 'company', label: t.titleTypes.company },
            ]}
          />
        </Form.Item>
        <Form.Item
          name="title"
          label={t.titleLabel}
          rules={[
            { required: true, whitespace: true, message: t.errors.title },
            { max: 100, message: '发票抬头不能超过100个字' },
          ]}
        >
          <Input placeholder={t.titlePlaceholder[titleType]} maxLength={100} />
        </Form.Item>
        {titleType === 'company' && (
          <Form.Item
            name="taxpayerId"
            label={t.taxpayerId}
            required
            normalize={(value: string) => value.toUpperCase()}
            rules={[
              {
                validator: (_, value: string | undefined) => {
                  if (!value?.trim()) return Promise.reject(new Error(t.errors.taxpayerIdRequired));
                  return isValidCreditCode(value)
                    ? Promise.resolve()
                    : Promise.reject(new Error(t.errors.taxpayerId));
                },
              },
            ]}
          >
            <Input placeholder={t.taxpayerIdPlaceholder} maxLength={22} className="mono" />
          </Form.Item>
        )}
        <Form.Item
          name="email"
          label={t.email}
          rules={[
            { required: true, whitespace: true, message: t.errors.email },
            { pattern: EMAIL, message: t.errors.emailInvalid },
          ]}
        >
          <Input placeholder={t.emailPlaceholder} maxLength={100} inputMode="email" autoComplete="email" />
        </Form.Item>
      </Form>
    </BaseModal>
  );
}
