import { LockOutlined } from '@ant-design/icons';
import {
  MESSAGES,
  PASSWORD_MAX,
  toFormValidator,
  validateAgreement,
  validateBindPassword,
  validateBindPhone,
  validateEducation,
  validateMajor,
} from '@kyfw/contracts';
import { Button, Form, Input } from 'antd';
import { toast } from '../../../stores/ui-store';
import { useBindPhoneNumber } from '../api/bind-phone-number';
import { authTexts } from '../texts';
import { PhoneField } from './phone-field';
import { EducationSelect, MajorSelect } from './profile-selects';
import { SmsCodeField } from './sms-code-field';
import '../auth.css';
import { TermsField } from './terms-field';

export interface BindPhonePanelProps {
  /** Fire after 绑定成功 (user info reloaded); the dialog closes. */
  onSuccess: () => void;
}

interface BindPhoneValues {
  phoneNumber: string;
  code: string;
  password?: string;
  major: string;
  education: string;
  isMsg: boolean;
}

/**
 * Bind-phone form (spec §4/§5): phone, SMS code (type '2') with the 60 s countdown, an optional
 * password (empty sets none, decision 0005), major, education and the agreement; the confirm
 * button is disabled until it is ticked. Success: user info reloaded after 1 s, 绑定成功.
 */
export function BindPhonePanel({ onSuccess }: BindPhonePanelProps) {
  const [form] = Form.useForm<BindPhoneValues>();
  const agreed = Form.useWatch('isMsg', form) === true;
  const bind = useBindPhoneNumber();
  const getPhone = () =>
    form
      .validateFields(['phoneNumber'])
      .then((values) => values.phoneNumber)
      .catch(() => null);

  const onFinish = (values: BindPhoneValues) =>
    bind.mutate(
      {
        phoneNumber: values.phoneNumber,
        checkCode: values.code,
        password: values.password ?? '',
        major: values.major,
        education: values.education,
      },
      {
        onSuccess: () => {
          toast.success(MESSAGES.BIND_SUCCESS);
          onSuccess();
        },
      },
    );

  return (
    <Form
      form={form}
      name="bindPhone"
      className="auth-form auth-form--bind"
      layout="vertical"
      requiredMark={false}
      onFinish={onFinish}
      initialValues={{ isMsg: false }}
      aria-label={authTexts.bindPhoneTitle}
    >
      <PhoneField validate={validateBindPhone} />
      <SmsCodeField purpose="2" name="code" getPhone={getPhone} />
      <Form.Item
        name="password"
        label={authTexts.bindPasswordLabel}
        extra={authTexts.bindPasswordHelp}
        validateTrigger="onBlur"
        rules={[{ validator: toFormValidator(validateBindPassword) }]}
      >
        <Input.Password
          prefix={<LockOutlined />}
          placeholder={authTexts.bindPasswordPlaceholder}
          maxLength={PASSWORD_MAX}
          autoComplete="new-password"
        />
      </Form.Item>
      <div className="auth-form__pair">
        <Form.Item
          name="major"
          label={authTexts.majorLabel}
          rules={[{ validator: toFormValidator(validateMajor) }]}
        >
          <MajorSelect placeholder={authTexts.majorPlaceholder} />
        </Form.Item>
        <Form.Item
          name="education"
          label={authTexts.educationLabel}
          rules={[{ validator: toFormValidator(validateEducation) }]}
        >
          <EducationSelect placeholder={authTexts.educationPlaceholder} />
        </Form.Item>
      </div>
      <TermsField name="isMsg" validate={validateAgreement} label={authTexts.bindAgreement} />
      <Button type="primary" htmlType="submit" block size="large" disabled={!agreed} loading={bind.isPending}>
        {authTexts.bindSubmit}
      </Button>
    </Form>
  );
}
