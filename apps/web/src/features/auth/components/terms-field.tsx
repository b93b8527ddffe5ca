import { toFormValidator, type Validator, validateTerms } from '@kyfw/contracts';
import { Checkbox, Form } from 'antd';
import type { ReactNode } from 'react';
import { TermsLinks } from '../../legal';
import { authTexts } from '../texts';

export interface TermsFieldProps {
  /** The form field holding the checkbox (the spec's names: isAutoLogin, accepted, isMsg). */
  name: string;
  /** The §5 rule: validateTerms by default; the bind-phone form's validateAgreement. */
  validate?: Validator;
  /** The checkbox's text (default 我已阅读并同意…). */
  label?: ReactNode;
}

/** The consent checkbox with the terms links under a form, shared by login, register and binding. */
export function TermsField({
  name,
  validate = validateTerms,
  label = authTexts.termsAccept,
}: TermsFieldProps) {
  return (
    <div className="auth-form__terms">
      <Form.Item name={name} valuePropName="checked" rules={[{ validator: toFormValidator(validate) }]}>
        <Checkbox>{label}</Checkbox>
      </Form.Item>
      <TermsLinks className="auth-form__terms-links" />
    </div>
  );
}
