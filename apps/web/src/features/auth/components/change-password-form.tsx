import { LockOutlined } from '@ant-design/icons';
import { PASSWORD_MAX, toFormValidator, validatePassword } from '@kyfw/contracts';
import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { toast } from '../../../stores/ui-store';
import { changePassword } from '../api/change-password';
import { authTexts, passwordTexts } from '../texts';
import { NewPasswordFields } from './password-fields';
import '../auth.css';

interface ChangePasswordValues {
  oldPassword: string;
  password: string;
  confirmPassword: string;
}

/**
 * Change password (/user/password): old + new (+ confirm), both sent as MD5. The server keeps this
 * session and ends every other one.
 */
export function ChangePasswordForm() {
  const [form] = Form.useForm<ChangePasswordValues>();
  const [saving, setSaving] = useState(false);
  const [changed, setChanged] = useState(false);
  const onFinish = async (values: ChangePasswordValues) => {
    setSaving(true);
    const [error] = await changePassword(values.oldPassword, values.password);
    setSaving(false);
    if (error) return;
    toast.success(passwordTexts.done);
    form.resetFields();
    setChanged(true);
  };
  return (
    <Form
      form={form}
      name="changePassword"
      className="auth-form password-form"
      layout="vertical"
      requiredMark={false}
      onFinish={onFinish}
      onValuesChange={() => setChanged(false)}
      aria-label={passwordTexts.title}
    >
      {changed && (
        <Alert type="success" showIcon message={passwordTexts.successNote} className="password-form__done" />
      )}
      <Form.Item
        name="oldPassword"
        label={authTexts.oldPasswordLabel}
        validateTrigger="onBlur"
        rules={[{ validator: toFormValidator(validatePassword) }]}
      >
        <Input.Password
          prefix={<LockOutlined />}
          placeholder={authTexts.oldPasswordPlaceholder}
          maxLength={PASSWORD_MAX}
          autoComplete="current-password"
        />
      </Form.Item>
      <NewPasswordFields label={authTexts.newPasswordLabel} placeholder={authTexts.newPasswordPlaceholder} />
      <Button type="primary" htmlType="submit" size="large" loading={saving}>
        {passwordTexts.submit}
      </Button>
    </Form>
  );
}
