import { LockOutlined } from '@ant-design/icons';
import { PASSWORD_MAX, toFormValidator, validatePassword } from '@kyfw/contracts';
import { Button, Form, Input } from 'antd';
import { useLoginByPassword } from '../api/login';
import { authTexts } from '../texts';
import { PhoneField } from './phone-field';
import '../auth.css';
import { TermsField } from './terms-field';

export interface AccountLoginPanelProps {
  /** Fire after a successful login (token stored, user info loaded, 欢迎登录！ shown). */
  onSuccess: () => void;
}

interface LoginValues {
  phoneNumber: string;
  password: string;
  isAutoLogin: boolean;
}

/**
 * Phone + password login (spec §4/§5): submit disabled until both fields are filled; the §5 rules
 * and messages; the terms checkbox (isAutoLogin); the password sent as MD5 hex; on success the
 * token cookie, user info 1 s later, 欢迎登录！ and the success event.
 */
export function AccountLoginPanel({ onSuccess }: AccountLoginPanelProps) {
  const [form] = Form.useForm<LoginValues>();
  const phone = Form.useWatch('phoneNumber', form);
  const password = Form.useWatch('password', form);
  const login = useLoginByPassword();
  const filled = Boolean(phone) && Boolean(password);

  const onFinish = (values: LoginValues) =>
    login.mutate(
      { phoneNumber: values.phoneNumber, password: values.password },
      { onSuccess: (loggedIn) => loggedIn && onSuccess() },
    );

  return (
    <Form
      form={form}
      name="accountLogin"
      className="auth-form"
      layout="vertical"
      requiredMark={false}
      onFinish={onFinish}
      initialValues={{ isAutoLogin: false }}
      aria-label={authTexts.tabAccount}
    >
      <PhoneField autoComplete="username" />
      <Form.Item
        name="password"
        label={authTexts.passwordLabel}
        validateTrigger="onBlur"
        rules={[{ validator: toFormValidator(validatePassword) }]}
      >
        <Input.Password
          prefix={<LockOutlined />}
          placeholder={authTexts.passwordPlaceholder}
          maxLength={PASSWORD_MAX}
          autoComplete="current-password"
        />
      </Form.Item>
      <TermsField name="isAutoLogin" />
      <Button
        type="primary"
        htmlType="submit"
        block
        size="large"
        disabled={!filled}
        loading={login.isPending}
      >
        {authTexts.loginSubmit}
      </Button>
    </Form>
  );
}
