import { Button, Form, Input, Radio } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { toast } from '../../../stores/ui-store';
import { updateUserInfo } from '../api/update-user-info';
import { setUserInfo } from '../stores/session-store';
import { infoTexts } from '../texts';
import type { UserInfo } from '../types';
import { EducationSelect, MajorSelect } from './profile-selects';
import '../auth.css';

interface ProfileValues {
  realName: string;
  unitName: string;
  gender: 'male' | 'female' | '';
  major: string | null;
  education: string | null;
}

function valuesOf(user: UserInfo): ProfileValues {
  return {
    realName: user.realName ?? '',
    unitName: user.unitName ?? '',
    gender: user.gender ?? '',
    major: user.major ?? null,
    education: user.education ?? null,
  };
}

const maxChars = (max: number, message: string) => ({
  validator: (_rule: unknown, value: unknown) =>
    typeof value === 'string' && Array.from(value.trim()).length > max
      ? Promise.reject(new Error(message))
      : Promise.resolve(),
});

/** Personal data of /user/info: real name, unit, gender, major, education (all optional). */
export function ProfileForm({ user }: { user: UserInfo }) {
  const [form] = Form.useForm<ProfileValues>();
  const [saving, setSaving] = useState(false);
  const [dirty, setDirtyState] = useState(false);
  const dirtyRef = useRef(false);
  const setDirty = (value: boolean) => {
    dirtyRef.current = value;
    setDirtyState(value);
  };

  // New user info (saved here, or changed by a binding): show it, unless the user is editing.
  useEffect(() => {
    if (dirtyRef.current) return;
    form.setFieldsValue(valuesOf(user));
  }, [form, user]);

  const onFinish = async (values: ProfileValues) => {
    setSaving(true);
    const [error, updated] = await updateUserInfo({
      realName: values.realName.trim(),
      unitName: values.unitName.trim(),
      gender: values.gender,
      major: values.major ?? '',
      education: values.education ?? '',
    });
    setSaving(false);
    if (error) return;
    toast.success(infoTexts.saved);
    setDirty(false);
    setUserInfo(updated);
  };

  return (
    <Form
      form={form}
      name="profile"
      className="info-profile"
      layout="vertical"
      initialValues={valuesOf(user)}
      onFinish={onFinish}
      onValuesChange={() => setDirty(true)}
      aria-label={infoTexts.profileSection}
    >
      <div className="info-profile__grid">
        <Form.Item
          name="realName"
          label={infoTexts.realName}
          rules={[maxChars(50, infoTexts.realNameTooLong)]}
        >
          <Input placeholder={infoTexts.realNamePlaceholder} maxLength={50} autoComplete="name" />
        </Form.Item>
        <Form.Item
          name="unitName"
          label={infoTexts.unitName}
          rules={[maxChars(100, infoTexts.unitNameTooLong)]}
        >
          <Input placeholder={infoTexts.unitNamePlaceholder} maxLength={100} autoComplete="organization" />
        </Form.Item>
        <Form.Item name="major" label={infoTexts.major}>
          <MajorSelect placeholder={infoTexts.selectPlaceholder} allowClear />
        </Form.Item>
        <Form.Item name="education" label={infoTexts.education}>
          <EducationSelect placeholder={infoTexts.selectPlaceholder} allowClear />
        </Form.Item>
      </div>
      <Form.Item name="gender" label={infoTexts.gender}>
        <Radio.Group
          options={[
            { label: infoTexts.male, value: 'male' },
            { label: infoTexts.female, value: 'female' },
            { label: infoTexts.genderUnset, value: '' },
          ]}
        />
      </Form.Item>
      <div className="info-profile__actions">
        <Button type="primary" htmlType="submit" loading={saving} disabled={!dirty}>
          {infoTexts.save}
        </Button>
        <Button
          type="text"
          disabled={!dirty || saving}
          onClick={() => {
            form.setFieldsValue(valuesOf(user));
            setDirty(false);
          }}
        >
          {infoTexts.reset}
        </Button>
      </div>
    </Form>
  );
}
