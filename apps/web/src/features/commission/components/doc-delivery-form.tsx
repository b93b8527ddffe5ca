import { COMMISSION_RULES } from '@kyfw/contracts';
import { Checkbox, Form, Input } from 'antd';
import { commissionTexts as T } from '../texts';
import { CommissionForm } from './commission-form';
import { linesOf, listRule } from './form-rules';

const R = COMMISSION_RULES.docDelivery;

/** 文献下载服务: one citation, DOI or link per line (priced per paper), for personal study. */
export function DocDeliveryForm() {
  return (
    <CommissionForm
      service="doc_delivery"
      schedule={false}
      estimateOf={(v) => ({ items: linesOf(v.items).length })}
      toBody={(v) => ({ items: linesOf(v.items), personalUse: v.personalUse === true })}
    >
      <fieldset>
        <legend>{T.sections.items}</legend>
        <Form.Item
          name="items"
          label={T.fields.items}
          required
          extra={T.fields.itemsHelp}
          rules={[
            listRule({
              min: R.items.min,
              max: R.items.max,
              itemMax: R.citation.max,
              required: R.items.required,
              tooMany: R.items.tooMany,
              tooLong: R.citation.tooLong,
            }),
          ]}
        >
          <Input.TextArea rows={6} />
        </Form.Item>
        <Form.Item
          name="personalUse"
          valuePropName="checked"
          rules={[
            {
              validator: async (_r, v) =>
                v === true ? undefined : Promise.reject(new Error(R.personalUse.required)),
            },
          ]}
        >
          <Checkbox>{T.fields.personalUse}</Checkbox>
        </Form.Item>
      </fieldset>
    </CommissionForm>
  );
}
