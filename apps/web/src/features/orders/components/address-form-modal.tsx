import { ADDRESS_RULES, PHONE_PATTERN } from '@kyfw/contracts';
import { Button, Cascader, Checkbox, Form, Input } from 'antd';
import { useEffect, useMemo } from 'react';
import { BaseModal } from '../../../components/ui/base-modal';
import { useCityList } from '../api/get-city-list';
import { useSaveAddress } from '../api/save-address';
import { addressTexts } from '../texts';
import type { Address, CityNode } from '../types';

const R = ADDRESS_RULES;

const t = addressTexts;

interface FormValues {
  name: string;
  phone: string;
  region: string[];
  detail: string;
  isDefault: boolean;
}

interface RegionOption {
  value: string;
  label: string;
  children?: RegionOption[];
}

function toOptions(nodes: CityNode[]): RegionOption[] {
  return nodes.map((node) => ({
    value: node.name,
    label: node.name,
    ...(node.children?.length ? { children: toOptions(node.children) } : {}),
  }));
}

/** Adds or edits an address: name, phone, 省 / 市 / 区县 from /websiteUser/cityList, detail, default. */
export function AddressFormModal({
  open,
  address,
  isFirst,
  onClose,
  onSaved,
}: {
  open: boolean;
  /** null: a new address. */
  address: Address | null;
  /** The first address becomes the default anyway. */
  isFirst: boolean;
  onClose: () => void;
  onSaved: (address: Address) => void;
}) {
  const [form] = Form.useForm<FormValues>();
  const save = useSaveAddress();
  const cities = useCityList(open);
  const options = useMemo(() => toOptions(cities.data ?? []), [cities.data]);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      address
        ? {
            name: address.name,
            phone: address.phone,
            region: [address.province, address.city, address.district],
            detail: address.detail,
            isDefault: address.isDefault,
          }
        : { name: '', phone: '', region: [], detail: '', isDefault: isFirst },
    );
  }, [open, address, isFirst, form]);

  function submit(values: FormValues) {
    const [province = '', city = '', district = ''] = values.region ?? [];
    save.mutate(
      {
        ...(address ? { id: address.id } : {}),
        name: values.name.trim(),
        phone: values.phone.trim(),
        province,
        city,
        district,
        detail: values.detail.trim(),
        isDefault: values.isDefault,
      },
      { onSuccess: (saved) => onSaved(saved) },
    );
  }

  return (
    <BaseModal
      open={open}
      onClose={onClose}
      title={address ? t.formEdit : t.formAdd}
      width={560}
      className="address-form-modal"
      footer={
        <>
          <Button onClick={onClose}>{t.cancel}</Button>
          <Button type="primary" loading={save.isPending} onClick={() => form.submit()}>
            {t.save}
          </Button>
        </>
      }
    >
      <Form<FormValues>
        form={form}
        layout="horizontal"
        labelCol={{ flex: '88px' }}
        requiredMark
        onFinish={submit}
        className="address-form"
      >
        <Form.Item
          name="name"
          label={t.name}
          rules={[
            { required: true, whitespace: true, message: R.name.required },
            { max: R.name.max, message: R.name.tooLong },
          ]}
        >
          <Input placeholder={t.namePlaceholder} maxLength={R.name.max} autoComplete="name" />
        </Form.Item>
        <Form.Item
          name="phone"
          label={t.phone}
          rules={[
            { required: true, message: R.phone.required },
            { pattern: PHONE_PATTERN, message: R.phone.invalid },
          ]}
        >
          <Input placeholder={t.phonePlaceholder} maxLength={11} inputMode="numeric" autoComplete="tel" />
        </Form.Item>
        <Form.Item
          name="region"
          label={t.region}
          rules={[
            {
              validator: (_, value: string[] | undefined) =>
                value && value.length === 3 ? Promise.resolve() : Promise.reject(new Error(t.errors.region)),
            },
          ]}
          required
        >
          <Cascader
            options={options}
            placeholder={t.regionPlaceholder}
            loading={cities.isPending}
            showSearch
            changeOnSelect={false}
            className="address-form__region"
            classNames={{ popup: { root: 'address-region-popup' } }}
          />
        </Form.Item>
        <Form.Item
          name="detail"
          label={t.detail}
          rules={[
            { required: true, whitespace: true, message: R.detail.required },
            { min: R.detail.min, message: R.detail.required },
            { max: R.detail.max, message: R.detail.tooLong },
          ]}
        >
          <Input.TextArea
            placeholder={t.detailPlaceholder}
            maxLength={R.detail.max}
            autoSize={{ minRows: 2, maxRows: 4 }}
          />
        </Form.Item>
        <Form.Item name="isDefault" valuePropName="checked" label=" " colon={false}>
          <Checkbox disabled={isFirst && !address}>{t.makeDefault}</Checkbox>
        </Form.Item>
      </Form>
    </BaseModal>
  );
}
