import { MobileOutlined } from '@ant-design/icons';
import { toFormValidator, type Validator, validatePhone } from '@kyfw/contracts';
import { Form, Input } from 'antd';
import { authTexts } from '../texts';

export interface PhoneFieldProps {
  /** The §5 rule to apply: login/register use validatePhone, the bind-phone dialog validateBindPhone. */
  validate?: Validator;
  /** 'username' on the login form so password managers pair it with the password. */
  autoComplete?: 'tel' | 'username';
}

/** The 11-digit phone field (name `phoneNumber`) shared by the login, register, reset and bind forms. */
export function PhoneField({ validate = validatePhone, autoComplete = 'tel' }: PhoneFieldProps) {
  return (
    <Form.Item
      name="phoneNumber"
      label={authTexts.phoneLabel}
      validateTrigger="onBlur"
      rules={[{ validator: toFormValidator(validate) }]}
    >
      <Input
        prefix={<MobileOutlined />}
        placeholder={authTexts.phonePlaceholder}
        maxLength={11}
        inputMode="numeric"
        autoComplete={autoComplete}
      />
    </Form.Item>
  );
}
