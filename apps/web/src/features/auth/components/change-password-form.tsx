import { LockOutlined } from '@ant-design/icons';
import { PASSWORD_MAX, toFormValidator, validatePassword } from '@kyfw/contracts';
import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { toast } from '../../../stores/ui-store';
import { useChangePassword } from '../api/change-password';
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
  const change = useChangePassword();
  const [changed, setChanged] = useState(false);
  const onFinish = (values: ChangePasswordValues) =>
    change.mutate(
      { oldPassword: values.oldPassword, newPassword: values.password },
      {
        onSuccess: () => {
          toast.success(passwordTexts.done);
          form.resetFields();
          setChanged(true);
        },
      },
    );
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
      <Button type="primary" htmlType="submit" size="large" loading={change.isPending}>
        {passwordTexts.submit}
      </Button>
    </Form>
  );
}
