import { Button, Form } from 'antd';
import { useState } from 'react';
import { toast } from '../../../stores/ui-store';
import { resetPassword } from '../api/reset-password';
import { clearSession, sessionStore } from '../stores/session-store';
import { authTexts } from '../texts';
import { NewPasswordFields } from './password-fields';
import { PhoneField } from './phone-field';
import { SmsCodeField } from './sms-code-field';
import '../auth.css';

interface ForgotValues {
  phoneNumber: string;
  checkCode: string;
  password: string;
  confirmPassword: string;
}

/**
 * Password reset at /login/forgotPassword: phone, SMS code (type '3'), new password (+ confirm).
 * The server ends every session of the account; the user then logs in with the new password.
 */
export function ForgotPasswordForm({ onSuccess }: { onSuccess: () => void }) {
  const [form] = Form.useForm<ForgotValues>();
  const [submitting, setSubmitting] = useState(false);
  const getPhone = () =>
    form
      .validateFields(['phoneNumber'])
      .then((values) => values.phoneNumber)
      .catch(() => null);

  const onFinish = async (values: ForgotValues) => {
    setSubmitting(true);
    const [error] = await resetPassword(values.phoneNumber, values.checkCode, values.password);
    setSubmitting(false);
    if (error) return;
    // This browser's session ended too when it belonged to the same account.
    if (sessionStore.getState().userInfo?.phoneNumber === values.phoneNumber) clearSession();
    toast.success(authTexts.resetDone);
    onSuccess();
  };

  return (
    <Form
      form={form}
      name="forgotPassword"
      className="auth-form"
      layout="vertical"
      requiredMark={false}
      onFinish={onFinish}
      aria-label={authTexts.forgotPageTitle}
    >
      <PhoneField />
      <SmsCodeField purpose="3" getPhone={getPhone} />
      <NewPasswordFields label={authTexts.newPasswordLabel} placeholder={authTexts.newPasswordPlaceholder} />
      <Button type="primary" htmlType="submit" block size="large" loading={submitting}>
        {authTexts.forgotSubmit}
      </Button>
    </Form>
  );
}
