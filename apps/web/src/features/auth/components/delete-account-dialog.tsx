import { ExclamationCircleFilled } from '@ant-design/icons';
import { ErrorCode } from '@kyfw/contracts';
import { Button, Checkbox, Form, Input } from 'antd';
import { useState } from 'react';
import { BaseModal } from '../../../components/ui/base-modal';
import { toast } from '../../../stores/ui-store';
import {
  getDeleteAccountQrCode,
  pollDeleteAccount,
  useDeleteAccountByPassword,
  useDeleteAccountBySms,
} from '../api/delete-account';
import { useEndSession } from '../hooks/use-end-session';
import { useQrPolling } from '../hooks/use-qr-polling';
import { useSession } from '../stores/session-store';
import { deleteTexts, maskPhone } from '../texts';
import { QrBox } from './qr-box';
import { SmsCodeField } from './sms-code-field';
import '../auth.css';

export interface DeleteAccountDialogProps {
  open: boolean;
  onClose: () => void;
}

/**
 * Account deletion (terms: from the personal-info page). What is erased and what the law makes us
 * keep de-identified, an explicit confirmation, then an SMS code (type '4') for accounts with a
 * phone or a re-scan by the bound WeChat for WeChat-only accounts. Afterwards: logged out, home.
 */
export function DeleteAccountDialog({ open, onClose }: DeleteAccountDialogProps) {
  const user = useSession((s) => s.userInfo);
  const [understood, setUnderstood] = useState(false);
  const endSession = useEndSession();
  const finish = async () => {
    toast.success(deleteTexts.done);
    onClose();
    await endSession();
  };
  return (
    <BaseModal
      open={open}
      onClose={onClose}
      title={deleteTexts.title}
      variant="dialog"
      width={520}
      afterClose={() => setUnderstood(false)}
    >
      <div className="delete-account">
        <div className="delete-account__warning" role="alert">
          <strong>
            <ExclamationCircleFilled /> {deleteTexts.warningTitle}
          </strong>
          <ul>
            <li>{deleteTexts.erased}</li>
            <li>{deleteTexts.kept}</li>
            <li>{deleteTexts.free}</li>
          </ul>
        </div>
        <div className="delete-account__confirm">
          {user?.phoneNumber ? (
            <DeleteBySms
              phone={user.phoneNumber}
              understood={understood}
              onUnderstood={setUnderstood}
              onCancel={onClose}
              onDeleted={finish}
            />
          ) : (
            <DeleteByWx
              active={open && understood}
              understood={understood}
              onUnderstood={setUnderstood}
              onCancel={onClose}
              onDeleted={finish}
            />
          )}
        </div>
      </div>
    </BaseModal>
  );
}

function Understand({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <Checkbox
      className="delete-account__understand"
      checked={checked}
      onChange={(e) => onChange(e.target.checked)}
    >
      {deleteTexts.understand}
    </Checkbox>
  );
}

function DeleteBySms({
  phone,
  understood,
  onUnderstood,
  onCancel,
  onDeleted,
}: {
  phone: string;
  understood: boolean;
  onUnderstood: (checked: boolean) => void;
  onCancel: () => void;
  onDeleted: () => Promise<void>;
}) {
  const [form] = Form.useForm<{ checkCode?: string; password?: string }>();
  const [byPassword, setByPassword] = useState(false);
  const bySms = useDeleteAccountBySms();
  const byPw = useDeleteAccountByPassword();
  const onFinish = (values: { checkCode?: string; password?: string }) => {
    if (byPassword) byPw.mutate(values.password ?? '', { onSuccess: () => onDeleted() });
    else bySms.mutate(values.checkCode ?? '', { onSuccess: () => onDeleted() });
  };
  return (
    <Form
      form={form}
      name="deleteAccount"
      layout="vertical"
      requiredMark={false}
      onFinish={onFinish}
      className="auth-form"
    >
      {byPassword ? (
        <>
          <p className="delete-account__step">{deleteTexts.byPassword}</p>
          <Form.Item
            name="password"
            label={deleteTexts.passwordLabel}
            rules={[{ required: true, message: deleteTexts.passwordRequired }]}
          >
            <Input.Password autoComplete="current-password" maxLength={50} />
          </Form.Item>
        </>
      ) : (
        <>
          <p className="delete-account__step">{deleteTexts.bySms(maskPhone(phone))}</p>
          <SmsCodeField purpose="4" getPhone={async () => phone} />
        </>
      )}
      <button
        type="button"
        className="link-button delete-account__switch"
        onClick={() => setByPassword(!byPassword)}
      >
        {byPassword ? deleteTexts.useSms : deleteTexts.usePassword}
      </button>
      <Understand checked={understood} onChange={onUnderstood} />
      <div className="delete-account__actions">
        <Button onClick={onCancel}>{deleteTexts.cancel}</Button>
        <Button
          danger
          type="primary"
          htmlType="submit"
          disabled={!understood}
          loading={bySms.isPending || byPw.isPending}
        >
          {deleteTexts.submit}
        </Button>
      </div>
    </Form>
  );
}

function DeleteByWx({
  active,
  understood,
  onUnderstood,
  onCancel,
  onDeleted,
}: {
  active: boolean;
  understood: boolean;
  onUnderstood: (checked: boolean) => void;
  onCancel: () => void;
  onDeleted: () => Promise<void>;
}) {
  const polling = useQrPolling({
    active,
    fetchQr: getDeleteAccountQrCode,
    poll: (qr) => pollDeleteAccount(qr.userId),
    isDone: (data) => data.deleted === true,
    onDone: () => onDeleted(),
    onPollError: (error) => {
      if (error.code === ErrorCode.WECHAT_MISMATCH) return 'refresh';
      if (error.code === ErrorCode.UNAUTHORIZED) return 'stop';
      return 'ignore';
    },
  });
  return (
    <div className="auth-form">
      <Understand checked={understood} onChange={onUnderstood} />
      <p className="delete-account__step">{deleteTexts.byWx}</p>
      {active ? (
        <QrBox {...polling} doneText={deleteTexts.done} allowNewSandboxUser={false} />
      ) : (
        <p className="muted">{deleteTexts.understandFirst}</p>
      )}
      <div className="delete-account__actions">
        <Button onClick={onCancel}>{deleteTexts.cancel}</Button>
      </div>
    </div>
  );
}
