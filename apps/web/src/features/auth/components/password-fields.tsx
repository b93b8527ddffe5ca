import { LockOutlined } from '@ant-design/icons';
import { PASSWORD_MAX, toFormValidator, validatePassword } from '@kyfw/contracts';
import { Form, Input } from 'antd';
import { authTexts } from '../texts';

/** A new password (6–50 characters, spec §5) and its confirmation. */
export function NewPasswordFields({
  name = 'password',
  label = authTexts.passwordLabel,
  placeholder = authTexts.passwordPlaceholder,
}: {
  name?: string;
  label?: string;
  placeholder?: string;
}) {
  return (
    <>
      <Form.Item
        name={name}
        label={label}
        validateTrigger="onBlur"
        rules={[{ validator: toFormValidator(validatePassword) }]}
      >
        <Input.Password
          prefix={<LockOutlined />}
          placeholder={placeholder}
          maxLength={PASSWORD_MAX}
          autoComplete="new-password"
        />
      </Form.Item>
      <Form.Item
        name="confirmPassword"
        label={authTexts.confirmPasswordLabel}
        dependencies={[name]}
        validateTrigger="onBlur"
        rules={[
          ({ getFieldValue }) => ({
            validator(_rule, value: unknown) {
              if (!value) return Promise.reject(new Error(authTexts.confirmPasswordRequired));
              if (value !== getFieldValue(name)) return Promise.reject(new Error(authTexts.passwordMismatch));
              return Promise.resolve();
            },
          }),
        ]}
      >
        <Input.Password
          prefix={<LockOutlined />}
          placeholder={authTexts.confirmPasswordPlaceholder}
          maxLength={PASSWORD_MAX}
          autoComplete="new-password"
        />
      </Form.Item>
    </>
  );
}
