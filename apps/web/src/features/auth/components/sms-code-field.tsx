import { toFormValidator, validateSmsCode } from '@kyfw/contracts';
import { Button, Form, Input } from 'antd';
import { useSmsCode } from '../hooks/use-sms-code';
import { authTexts } from '../texts';
import type { SmsPurpose } from '../types';
import { SandboxNotice } from './sandbox-notice';
import '../auth.css';

export interface SmsCodeFieldProps {
  purpose: SmsPurpose;
  /**
   * The phone to send to, or null when it is not valid yet (the field then shows its message).
   * Usually validates the form's phone field.
   */
  getPhone: () => Promise<string | null>;
  /** Form field name of the code; default 'checkCode'. */
  name?: string;
  label?: string;
}

/**
 * SMS check code input with the send-code button (spec §4/§5): the button needs a valid phone,
 * then shows a 60 s countdown during which it is disabled. In sandbox mode the code just "sent"
 * appears in a 沙箱 notice with a 填入 action.
 */
export function SmsCodeField({
  purpose,
  getPhone,
  name = 'checkCode',
  label = authTexts.codeLabel,
}: SmsCodeFieldProps) {
  const form = Form.useFormInstance();
  const {
    send,
    sending,
    remaining,
    counting,
    sandboxCode,
    captcha,
    captchaCode,
    setCaptchaCode,
    refreshCaptcha,
  } = useSmsCode(purpose);
  const onSend = async () => {
    const phone = await getPhone();
    if (phone) await send(phone);
  };
  return (
    <>
      <Form.Item label={label} required className="sms-field">
        <div className="sms-field__row">
          <Form.Item
            name={name}
            noStyle
            validateTrigger="onBlur"
            rules={[{ validator: toFormValidator(validateSmsCode) }]}
          >
            <Input
              placeholder={authTexts.codePlaceholder}
              maxLength={6}
              inputMode="numeric"
              autoComplete="one-time-code"
              aria-label={label}
            />
          </Form.Item>
          <Button className="sms-field__send" onClick={onSend} loading={sending} disabled={counting}>
            {counting ? authTexts.resendIn(remaining) : authTexts.sendCode}
          </Button>
        </div>
      </Form.Item>
      {captcha && (
        <Form.Item label={authTexts.captchaLabel} required extra={authTexts.captchaHint}>
          <div className="sms-field__row">
            <Input
              value={captchaCode}
              onChange={(event) => setCaptchaCode(event.target.value)}
              placeholder={authTexts.captchaPlaceholder}
              maxLength={8}
              autoComplete="off"
              aria-label={authTexts.captchaLabel}
            />
            <button
              type="button"
              className="captcha-image"
              onClick={() => void refreshCaptcha()}
              title={authTexts.captchaRefresh}
            >
              <img src={captcha.image} alt={authTexts.captchaAlt} width={120} height={44} />
            </button>
          </div>
        </Form.Item>
      )}
      {sandboxCode && (
        <SandboxNotice className="sms-field__sandbox">
          <span>{authTexts.sandboxSms(sandboxCode.phone)}</span>
          <strong className="sandbox-notice__code" data-testid="sandbox-sms-code">
            {sandboxCode.code}
          </strong>
          <button
            type="button"
            className="link-button"
            onClick={() => {
              form.setFieldValue(name, sandboxCode.code);
              void form.validateFields([name]).catch(() => {});
            }}
          >
            {authTexts.sandboxFill}
          </button>
        </SandboxNotice>
      )}
    </>
  );
}
