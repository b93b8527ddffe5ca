import { Button, Form } from 'antd';
import { toast } from '../../../stores/ui-store';
import { useResetPassword } from '../api/reset-password';
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
  const reset = useResetPassword();
  const getPhone = () =>
    form
      .validateFields(['phoneNumber'])
      .then((values) => values.phoneNumber)
      .catch(() => null);

  const onFinish = (values: ForgotValues) =>
    reset.mutate(
      { phoneNumber: values.phoneNumber, checkCode: values.checkCode, password: values.password },
      {
        onSuccess: () => {
          toast.success(authTexts.resetDone);
          onSuccess();
        },
      },
    );

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
      <Button type="primary" htmlType="submit" block size="large" loading={reset.isPending}>
        {authTexts.forgotSubmit}
      </Button>
    </Form>
  );
}
