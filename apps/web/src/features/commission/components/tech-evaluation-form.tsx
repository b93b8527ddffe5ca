import { COMMISSION_RULES, EVALUATION_FORMS, RESULT_TYPES } from '@kyfw/contracts';
import { Form, Input, Radio, Select } from 'antd';
import { commissionTexts as T } from '../texts';
import { CommissionForm } from './commission-form';
import { longTextRules, required, textRules } from './form-rules';

const R = COMMISSION_RULES.techEvaluation;

/** 科技成果评价: the result, its units and materials; priced by an operator's quote. */
export function TechEvaluationForm() {
  return (
    <CommissionForm
      service="tech_evaluation"
      calculator
      filesRequired={R.materials.required}
      filesLabel={T.fields.materials}
      filesHelp={T.fields.materialsHelp}
      estimateOf={() => ({})}
      toBody={(v) => ({ name: v.name, type: v.type, units: v.units, form: v.form, summary: v.summary })}
    >
      <fieldset>
        <legend>{T.sections.result}</legend>
        <Form.Item name="name" label={T.fields.resultName} rules={textRules(R.name)}>
          <Input maxLength={R.name.max} />
        </Form.Item>
        <div className="commission-form__row">
          <Form.Item name="type" label={T.fields.resultType} rules={[required(R.type.required)]}>
            <Select options={RESULT_TYPES.map((t) => ({ value: t, label: t }))} />
          </Form.Item>
          <Form.Item name="form" label={T.fields.evaluationForm} rules={[required(R.form.required)]}>
            <Radio.Group options={EVALUATION_FORMS.map((f) => ({ value: f, label: f }))} />
          </Form.Item>
        </div>
        <Form.Item name="units" label={T.fields.units} extra={T.fields.unitsHelp} rules={textRules(R.units)}>
          <Input maxLength={R.units.max} />
        </Form.Item>
        <Form.Item name="summary" label={T.fields.resultSummary} rules={longTextRules(R.summary)}>
          <Input.TextArea rows={6} maxLength={R.summary.max} showCount />
        </Form.Item>
      </fieldset>
    </CommissionForm>
  );
}
