import {
  type Commission,
  type CommissionForm as CommissionBody,
  type CommissionService,
  DELIVERY_OPTIONS,
  PHONE_PATTERN,
  COMMISSION_RULES as R,
  URGENCY_OPTIONS,
} from '@kyfw/contracts';
import { Button, Form, Input, InputNumber, Radio, Result } from 'antd';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useRequireLogin } from '../../auth';
import { type EstimateInput, useEstimate } from '../api/estimate';
import { useIsServicePaused } from '../api/service-states';
import { useSubmitCommission } from '../api/submit-commission';
import { commissionTexts as T } from '../texts';
import { AttachmentsField } from './attachments-field';
import { EstimateCard } from './estimate-card';
import { required, textRules } from './form-rules';
import { SubmittedCommission } from './submitted-commission';
import { UnitCalculator } from './unit-calculator';
import '../commission.css';

// biome-ignore lint/suspicious/noExplicitAny: the antd form's values differ per service
export type FormValues = Record<string, any>;

export interface CommissionFormProps {
  service: CommissionService;
  /** The service's own fields (Form.Items). */
  children: ReactNode;
  /** The form's values -> the submit body's service part. */
  toBody: (values: FormValues) => Record<string, unknown>;
  /** The estimate's counts from the values so far. */
  estimateOf: (values: FormValues) => Omit<EstimateInput, 'service'>;
  initialValues?: FormValues;
  /** 时效与交付 (urgency, deadline, delivery, copies); 文献下载 has none. */
  schedule?: boolean;
  /** The unit calculator beside the form. */
  calculator?: boolean;
  /** Attachments are required (评价材料). */
  filesRequired?: string;
  filesLabel?: string;
  filesHelp?: string;
}

/** Tomorrow in China time, YYYY-MM-DD (the server refuses today or earlier). */
function tomorrow(): string {
  return new Date(Date.now() + 8 * 3600_000 + 24 * 3600_000).toISOString().slice(0, 10);
}

async function checkDeadline(value: string | undefined) {
  if (!value) return;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new Error(R.deadline.invalid);
  if (value < tomorrow()) throw new Error(R.deadline.past);
}

/**
 * The frame of the four commission forms: the service's fields, then 时效与交付, 联系人 and
 * attachments, with the price estimate (and the unit calculator) beside it. Submitting needs a
 * login; the server checks every field again and its message is toasted.
 */
export function CommissionForm(props: CommissionFormProps) {
  // A paused service (its goods unlisted) shows 暂停受理 instead of the form and the price box.
  if (useIsServicePaused(props.service)) return <PausedService />;
  return <CommissionFormBody {...props} />;
}

/** 暂停受理: what the page shows for a service whose goods are unlisted (下架). */
export function PausedService() {
  return (
    <Result
      className="commission-paused"
      status="info"
      title={T.paused.title}
      subTitle={T.paused.description}
      data-testid="commission-paused"
    />
  );
}

function CommissionFormBody(props: CommissionFormProps) {
  const [form] = Form.useForm<FormValues>();
  const values = Form.useWatch([], form) ?? props.initialValues ?? {};
  const requireLogin = useRequireLogin();
  const submit = useSubmitCommission();
  const [submitted, setSubmitted] = useState<Commission | null>(null);
  const schedule = props.schedule !== false;
  const estimateInput: EstimateInput = {
    service: props.service,
    ...props.estimateOf(values),
    ...(schedule ? { urgency: values.urgency ?? 'standard' } : {}),
  };
  const estimate = useEstimate(estimateInput, true);

  if (submitted) {
    return (
      <SubmittedCommission
        commission={submitted}
        onAgain={() => {
          setSubmitted(null);
          form.resetFields();
        }}
      />
    );
  }

  const onFinish = (v: FormValues) =>
    requireLogin(() => {
      const body = {
        ...props.toBody(v),
        service: props.service,
        contactName: v.contactName,
        contactPhone: v.contactPhone,
        unit: v.unit || undefined,
        email: v.email || undefined,
        note: v.note || undefined,
        fileIds: v.fileIds ?? [],
        ...(schedule
          ? {
              urgency: v.urgency,
              deadline: v.deadline,
              delivery: v.delivery,
              copies: v.delivery === 'print' ? v.copies : 1,
            }
          : {}),
      } as CommissionBody;
      submit.mutate(body, { onSuccess: setSubmitted });
    });

  return (
    <div className="commission-layout">
      <Form
        form={form}
        layout="vertical"
        className="commission-form"
        initialValues={{
          urgency: 'standard',
          delivery: 'pdf',
          copies: 1,
          fileIds: [],
          ...props.initialValues,
        }}
        onFinish={onFinish}
        scrollToFirstError
      >
        {props.children}
        {schedule && (
          <fieldset>
            <legend>{T.sections.schedule}</legend>
            <Form.Item name="urgency" label={T.fields.urgency} rules={[required(R.urgency.required)]}>
              <Radio.Group options={URGENCY_OPTIONS.map((o) => ({ value: o.value, label: o.label }))} />
            </Form.Item>
            <Form.Item
              name="deadline"
              label={T.fields.deadline}
              rules={[
                required(R.deadline.required),
                { validator: async (_r, v?: string) => checkDeadline(v) },
              ]}
            >
              <Input type="date" min={tomorrow()} style={{ width: 180 }} />
            </Form.Item>
            <Form.Item name="delivery" label={T.fields.delivery} rules={[required(R.delivery.required)]}>
              <Radio.Group options={DELIVERY_OPTIONS.map((o) => ({ value: o.value, label: o.label }))} />
            </Form.Item>
            {values.delivery === 'print' && (
              <Form.Item
                name="copies"
                label={T.fields.copies}
                extra={T.delivery.printHint}
                rules={[
                  required(R.copies.invalid),
                  { type: 'integer', min: R.copies.min, max: R.copies.max, message: R.copies.invalid },
                ]}
              >
                <InputNumber min={R.copies.min} max={R.copies.max} precision={0} />
              </Form.Item>
            )}
          </fieldset>
        )}
        <fieldset>
          <legend>{T.sections.contact}</legend>
          <div className="commission-form__row">
            <Form.Item name="contactName" label={T.fields.contactName} rules={textRules(R.contact.name)}>
              <Input maxLength={R.contact.name.max} autoComplete="name" />
            </Form.Item>
            <Form.Item
              name="contactPhone"
              label={T.fields.contactPhone}
              rules={[
                required(R.contact.phone.required),
                { pattern: PHONE_PATTERN, message: R.contact.phone.invalid },
              ]}
            >
              <Input maxLength={11} inputMode="numeric" autoComplete="tel" />
            </Form.Item>
          </div>
          <div className="commission-form__row">
            <Form.Item
              name="unit"
              label={T.fields.unit}
              rules={[{ max: R.contact.unit.max, message: R.contact.unit.tooLong }]}
            >
              <Input maxLength={R.contact.unit.max} autoComplete="organization" />
            </Form.Item>
            <Form.Item
              name="email"
              label={T.fields.email}
              extra={T.fields.emailHelp}
              rules={[{ type: 'email', message: R.contact.email.invalid }]}
            >
              <Input maxLength={R.contact.email.max} autoComplete="email" />
            </Form.Item>
          </div>
          <Form.Item name="note" label={T.fields.note} rules={[{ max: R.note.max, message: R.note.tooLong }]}>
            <Input.TextArea rows={2} maxLength={R.note.max} showCount />
          </Form.Item>
        </fieldset>
        <fieldset>
          <legend>{T.sections.files}</legend>
          <Form.Item
            name="fileIds"
            label={props.filesLabel ?? T.fields.files}
            extra={props.filesHelp ?? T.fields.filesHelp}
            rules={
              props.filesRequired
                ? [{ required: true, type: 'array', min: 1, message: props.filesRequired }]
                : []
            }
          >
            <AttachmentsField />
          </Form.Item>
        </fieldset>
        <Button type="primary" htmlType="submit" size="large" loading={submit.isPending}>
          {T.submit}
        </Button>
      </Form>
      <div className="commission-side">
        <EstimateCard estimate={estimate.data} loading={estimate.isFetching} />
        {props.calculator && <UnitCalculator />}
      </div>
    </div>
  );
}
