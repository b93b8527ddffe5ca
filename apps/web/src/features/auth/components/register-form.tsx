import { Button, Form } from 'antd';
import { useRegisterByPhone } from '../api/register';
import { authTexts } from '../texts';
import { NewPasswordFields } from './password-fields';
import { PhoneField } from './phone-field';
import { SmsCodeField } from './sms-code-field';
import '../auth.css';
import { TermsField } from './terms-field';

interface RegisterValues {
  phoneNumber: string;
  checkCode: string;
  password: string;
  confirmPassword: string;
  accepted: boolean;
}

/**
 * Registration at /register: phone, SMS check code (type '1', 60 s countdown), password (+ confirm)
 * and the terms checkbox; on success the token is stored and, 1 s later, the user is logged in.
 */
export function RegisterForm({ onSuccess }: { onSuccess: () => void }) {
  const [form] = Form.useForm<RegisterValues>();
  const register = useRegisterByPhone();
  const getPhone = () =>
    form
      .validateFields(['phoneNumber'])
      .then((values) => values.phoneNumber)
      .catch(() => null);

  const onFinish = (values: RegisterValues) =>
    register.mutate(
      { phoneNumber: values.phoneNumber, checkCode: values.checkCode, password: values.password },
      { onSuccess: (loggedIn) => loggedIn && onSuccess() },
    );

  return (
    <Form
      form={form}
      name="register"
      className="auth-form"
      layout="vertical"
      requiredMark={false}
      onFinish={onFinish}
      initialValues={{ accepted: false }}
      aria-label={authTexts.registerPageTitle}
    >
      <PhoneField />
      <SmsCodeField purpose="1" getPhone={getPhone} />
      <NewPasswordFields />
      <TermsField name="accepted" />
      <Button type="primary" htmlType="submit" block size="large" loading={register.isPending}>
        {authTexts.registerSubmit}
      </Button>
    </Form>
  );
}
