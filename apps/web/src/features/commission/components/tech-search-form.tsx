import { COMMISSION_RULES, TECH_SEARCH_PURPOSES, TECH_SEARCH_SCOPES } from '@kyfw/contracts';
import { Form, Input, Radio, Select } from 'antd';
import { commissionTexts as T } from '../texts';
import { CommissionForm } from './commission-form';
import { linesOf, listRule, longTextRules, required, textRules } from './form-rules';

const R = COMMISSION_RULES.techSearch;
const KEYWORD_FIELDS = [
  { name: 'keywordsZh', label: T.fields.keywordsZh, message: R.keywords.requiredZh },
  { name: 'keywordsEn', label: T.fields.keywordsEn, message: R.keywords.requiredEn },
] as const;

/** 科技查新 with the fields of GB/T 32003-2015 (fixed price by scope and urgency). */
export function TechSearchForm() {
  return (
    <CommissionForm
      service="tech_search"
      calculator
      initialValues={{ scope: 'domestic', keywordsZh: [], keywordsEn: [] }}
      estimateOf={(v) => ({ scope: v.scope })}
      toBody={(v) => ({
        nameZh: v.nameZh,
        nameEn: v.nameEn,
        purpose: v.purpose,
        scope: v.scope,
        points: linesOf(v.points),
        summary: v.summary,
        keywordsZh: v.keywordsZh,
        keywordsEn: v.keywordsEn,
        references: v.references || undefined,
      })}
    >
      <fieldset>
        <legend>{T.sections.project}</legend>
        <Form.Item name="nameZh" label={T.fields.nameZh} rules={textRules(R.nameZh)}>
          <Input maxLength={R.nameZh.max} />
        </Form.Item>
        <Form.Item name="nameEn" label={T.fields.nameEn} rules={textRules(R.nameEn)}>
          <Input maxLength={R.nameEn.max} />
        </Form.Item>
        <div className="commission-form__row">
          <Form.Item name="purpose" label={T.fields.techPurpose} rules={[required(R.purpose.required)]}>
            <Select options={TECH_SEARCH_PURPOSES.map((p) => ({ value: p, label: p }))} />
          </Form.Item>
          <Form.Item name="scope" label={T.fields.scope} rules={[required(R.scope.required)]}>
            <Radio.Group options={TECH_SEARCH_SCOPES.map((o) => ({ value: o.value, label: o.label }))} />
          </Form.Item>
        </div>
      </fieldset>
      <fieldset>
        <legend>{T.sections.novelty}</legend>
        <Form.Item
          name="points"
          label={T.fields.points}
          required
          extra={T.fields.pointsHelp}
          rules={[
            listRule({
              min: R.points.min,
              max: R.points.max,
              itemMax: R.points.itemMax,
              required: R.points.required,
              tooMany: R.points.tooMany,
              tooLong: R.points.tooLong,
            }),
          ]}
        >
          <Input.TextArea rows={4} />
        </Form.Item>
        <Form.Item
          name="summary"
          label={T.fields.summary}
          extra={T.fields.summaryHelp}
          rules={longTextRules(R.summary)}
        >
          <Input.TextArea rows={6} maxLength={R.summary.max} showCount />
        </Form.Item>
        <div className="commission-form__row">
          {KEYWORD_FIELDS.map((k) => (
            <Form.Item
              key={k.name}
              name={k.name}
              label={k.label}
              extra={T.fields.keywordsHelp}
              rules={[
                {
                  required: true,
                  type: 'array',
                  min: R.keywords.min,
                  max: R.keywords.max,
                  message: k.message,
                },
              ]}
            >
              <Select mode="tags" open={false} tokenSeparators={[',', '，', ';', '；']} />
            </Form.Item>
          ))}
        </div>
        <Form.Item
          name="references"
          label={T.fields.references}
          extra={T.fields.referencesHelp}
          rules={[{ max: R.references.max, message: R.references.tooLong }]}
        >
          <Input.TextArea rows={3} maxLength={R.references.max} />
        </Form.Item>
      </fieldset>
    </CommissionForm>
  );
}
