import { CITATION_OPTIONS, COMMISSION_RULES, SEARCH_DATABASES, SEARCH_PURPOSES } from '@kyfw/contracts';
import { Button, Checkbox, Form, Input, InputNumber, Radio, Select } from 'antd';
import { commissionTexts as T } from '../texts';
import { CommissionForm, type FormValues } from './commission-form';
import { required, textRules } from './form-rules';

const R = COMMISSION_RULES.searchReport;

/** 收录引用检索报告: the papers, the databases, citations, purpose (priced per paper × database). */
export function SearchReportForm() {
  return (
    <CommissionForm
      service="search_report"
      initialValues={{ papers: [{}], databases: [], citations: 'separate' }}
      estimateOf={(v: FormValues) => ({
        papers: (v.papers ?? []).filter((p: FormValues | undefined) => p?.title).length,
        databases: (v.databases ?? []).length,
      })}
      toBody={(v) => ({
        papers: (v.papers ?? []).map((p: FormValues) => ({
          title: p.title,
          authors: p.authors,
          source: p.source || undefined,
          year: p.year ?? undefined,
        })),
        databases: v.databases,
        citations: v.citations,
        purpose: v.purpose,
      })}
    >
      <fieldset>
        <legend>{T.sections.papers}</legend>
        <Form.List
          name="papers"
          rules={[
            {
              validator: async (_r, papers?: unknown[]) => {
                if (!papers || papers.length < R.papers.min) throw new Error(R.papers.required);
                if (papers.length > R.papers.max) throw new Error(R.papers.tooMany);
              },
            },
          ]}
        >
          {(fields, { add, remove }, { errors }) => (
            <>
              {fields.map((field, index) => (
                <div key={field.key} className="commission-paper">
                  <span className="commission-paper__no">{index + 1}</span>
                  <Form.Item
                    name={[field.name, 'title']}
                    label={T.fields.paperTitle}
                    rules={textRules(R.paperTitle)}
                  >
                    <Input maxLength={R.paperTitle.max} />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'authors']}
                    label={T.fields.paperAuthors}
                    rules={textRules(R.paperAuthors)}
                  >
                    <Input maxLength={R.paperAuthors.max} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'source']} label={T.fields.paperSource}>
                    <Input maxLength={R.paperSource.max} />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'year']}
                    label={T.fields.paperYear}
                    rules={[
                      {
                        type: 'integer',
                        min: R.paperYear.min,
                        max: R.paperYear.max,
                        message: R.paperYear.invalid,
                      },
                    ]}
                  >
                    <InputNumber precision={0} style={{ width: 100 }} />
                  </Form.Item>
                  {fields.length > 1 && (
                    <Button type="link" danger onClick={() => remove(field.name)}>
                      {T.fields.removePaper}
                    </Button>
                  )}
                </div>
              ))}
              <Form.ErrorList errors={errors} />
              {fields.length < R.papers.max && (
                <Button type="dashed" onClick={() => add({})} block>
                  {T.fields.addPaper}
                </Button>
              )}
            </>
          )}
        </Form.List>
      </fieldset>
      <fieldset>
        <legend>{T.sections.search}</legend>
        <Form.Item
          name="databases"
          label={T.fields.databases}
          rules={[{ required: true, type: 'array', min: 1, message: R.databases.required }]}
        >
          <Checkbox.Group
            className="commission-checks"
            options={SEARCH_DATABASES.map((d) => ({ value: d.value, label: d.label }))}
          />
        </Form.Item>
        <Form.Item name="citations" label={T.fields.citations} rules={[required(R.citations.required)]}>
          <Radio.Group options={CITATION_OPTIONS.map((o) => ({ value: o.value, label: o.label }))} />
        </Form.Item>
        <Form.Item name="purpose" label={T.fields.searchPurpose} rules={[required(R.purpose.required)]}>
          <Select style={{ maxWidth: 240 }} options={SEARCH_PURPOSES.map((p) => ({ value: p, label: p }))} />
        </Form.Item>
      </fieldset>
    </CommissionForm>
  );
}
