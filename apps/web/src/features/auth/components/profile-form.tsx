import { Button, Form, Input, Radio } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { toast } from '../../../stores/ui-store';
import { useUpdateUserInfo } from '../api/update-user-info';
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
  const update = useUpdateUserInfo();
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

  const onFinish = (values: ProfileValues) =>
    update.mutate(
      {
        realName: values.realName.trim(),
        unitName: values.unitName.trim(),
        gender: values.gender,
        major: values.major ?? '',
        education: values.education ?? '',
      },
      {
        onSuccess: () => {
          toast.success(infoTexts.saved);
          setDirty(false);
        },
      },
    );

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
        <Button type="primary" htmlType="submit" loading={update.isPending} disabled={!dirty}>
          {infoTexts.save}
        </Button>
        <Button
          type="text"
          disabled={!dirty || update.isPending}
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
