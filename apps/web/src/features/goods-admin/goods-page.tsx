import {
  type AdminGoods,
  COMMISSION_SERVICES,
  FREE_ENTITLEMENT_TEXTS,
  freeEntitlementFor,
  GOODS_RULES,
  SERVICE_TYPES,
  type ServiceType,
  staffCan,
} from '@kyfw/contracts';
import {
  Alert,
  Button,
  Card,
  Drawer,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Select,
  Space,
  Switch,
  Table,
  Tag,
} from 'antd';
import { useState } from 'react';
import { toast } from '../../stores/ui-store';
import { serviceTexts, useStaff } from '../console';
import {
  type GoodsInput,
  useAdminGoods,
  useDeleteGoods,
  useSaveGoods,
  useSetGoodsActive,
} from './goods-admin-api';
import { goodsAdminTexts } from './texts';

const t = goodsAdminTexts.goods;
const f = t.form;

/** The goods and prices (admin edits; finance reads): every goods, on sale or not. */
export function GoodsPage() {
  const { data: staff } = useStaff();
  const canEdit = staffCan(staff?.role, 'goods.write');
  const { data, isPending } = useAdminGoods();
  const setActive = useSetGoodsActive();
  const remove = useDeleteGoods();
  const [editing, setEditing] = useState<AdminGoods | 'new' | null>(null);

  const toggle = (g: AdminGoods) =>
    setActive
      .mutateAsync({ goodsId: g.goodsId, active: !g.active })
      .then((r) => toast.success(r.active ? t.listed : t.unlisted))
      .catch(() => undefined);

  return (
    <Card
      title={goodsAdminTexts.nav.goods}
      extra={
        canEdit ? (
          <Button type="primary" onClick={() => setEditing('new')}>
            {t.create}
          </Button>
        ) : null
      }
    >
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message={canEdit ? t.priceNote : t.readOnly} />
      <Table<AdminGoods>
        rowKey="goodsId"
        loading={isPending}
        locale={{ emptyText: t.empty }}
        dataSource={data ?? []}
        pagination={false}
        scroll={{ x: 1000 }}
        expandable={{ expandedRowRender: (g) => g.description || t.none }}
        columns={[
          { title: t.columns.serviceType, dataIndex: 'serviceTypeText', width: 110 },
          {
            title: t.columns.name,
            render: (_, g) => (
              <span>
                {g.name}
                <br />
                <small style={{ color: '#888' }}>{g.goodsId}</small>
              </span>
            ),
          },
          { title: t.columns.price, dataIndex: 'unitPrice', align: 'right', width: 100 },
          { title: t.columns.unit, render: (_, g) => t.per(g.unitSize, g.unit), width: 130 },
          {
            title: t.columns.turnaround,
            width: 100,
            render: (_, g) => (g.turnaroundDays === null ? t.none : t.days(g.turnaroundDays)),
          },
          {
            title: t.columns.freeRule,
            render: (_, g) =>
              g.freeRule
                ? `${FREE_ENTITLEMENT_TEXTS[g.freeRule.entitlement]}${g.freeRule.maxQuantity ? t.freeCap(g.freeRule.maxQuantity) : ''}`
                : t.none,
          },
          {
            title: t.columns.status,
            width: 90,
            render: (_, g) => (
              <Tag color={g.active ? 'green' : 'default'}>{g.active ? t.onSale : t.offSale}</Tag>
            ),
          },
          { title: t.columns.orders, dataIndex: 'orders', width: 90, align: 'right' },
          ...(canEdit
            ? [
                {
                  title: '',
                  width: 210,
                  render: (_: unknown, g: AdminGoods) => (
                    <Space size="small">
                      <Button size="small" onClick={() => setEditing(g)}>
                        {t.edit}
                      </Button>
                      {g.active ? (
                        <Popconfirm title={t.unlistConfirm} onConfirm={() => toggle(g)}>
                          <Button size="small">{t.unlist}</Button>
                        </Popconfirm>
                      ) : (
                        <Button size="small" onClick={() => toggle(g)}>
                          {t.list}
                        </Button>
                      )}
                      {g.orders === 0 && (
                        <Popconfirm
                          title={t.removeConfirm}
                          onConfirm={() =>
                            remove
                              .mutateAsync(g.goodsId)
                              .then(() => toast.success(t.removed))
                              .catch(() => undefined)
                          }
                        >
                          <Button size="small" danger>
                            {t.remove}
                          </Button>
                        </Popconfirm>
                      )}
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
      {editing && <GoodsEditor goods={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </Card>
  );
}

interface FormValues {
  goodsId: string;
  serviceType: ServiceType;
  name: string;
  description: string;
  unitPrice: string;
  unitSize: number;
  unit: string;
  minQuantity: number;
  maxQuantity: number;
  sortOrder: number;
  turnaroundDays: number | null;
  freeEnabled: boolean;
  freeMax: number | null;
  freeText: string;
}

function initialValues(g: AdminGoods | null): Partial<FormValues> {
  if (!g)
    return {
      serviceType: 'check',
      unitSize: 1000,
      unit: '千字',
      minQuantity: 1,
      maxQuantity: 300000,
      sortOrder: 0,
      freeEnabled: false,
    };
  return {
    goodsId: g.goodsId,
    serviceType: g.serviceType,
    name: g.name,
    description: g.description,
    unitPrice: g.unitPrice,
    unitSize: g.unitSize,
    unit: g.unit,
    minQuantity: g.minQuantity,
    maxQuantity: g.maxQuantity,
    sortOrder: g.sortOrder,
    turnaroundDays: g.turnaroundDays,
    freeEnabled: g.freeRule !== null,
    freeMax: g.freeRule?.maxQuantity ?? null,
    freeText: g.freeRule?.text ?? '',
  };
}

/** Creates or edits one goods; the server checks every field again and says what is wrong. */
function GoodsEditor({ goods, onClose }: { goods: AdminGoods | null; onClose: () => void }) {
  const [form] = Form.useForm<FormValues>();
  const save = useSaveGoods();
  const serviceType = Form.useWatch('serviceType', form) ?? goods?.serviceType ?? 'check';
  const goodsId = Form.useWatch('goodsId', form) ?? goods?.goodsId ?? '';
  const freeEnabled = Form.useWatch('freeEnabled', form) ?? false;
  const entitlement = freeEntitlementFor(serviceType, goodsId);
  const isCommission = (COMMISSION_SERVICES as readonly string[]).includes(serviceType);

  const submit = (v: FormValues) => {
    const body: GoodsInput = {
      goodsId: v.goodsId,
      serviceType: v.serviceType,
      name: v.name,
      description: v.description ?? '',
      unitPrice: String(v.unitPrice),
      unitSize: v.unitSize,
      unit: v.unit,
      minQuantity: v.minQuantity,
      maxQuantity: v.maxQuantity,
      sortOrder: v.sortOrder ?? 0,
      turnaroundDays: isCommission ? (v.turnaroundDays ?? null) : null,
      freeRule:
        entitlement && v.freeEnabled
          ? {
              entitlement,
              maxQuantity: serviceType === 'check' ? (v.freeMax ?? null) : null,
              text: v.freeText,
            }
          : null,
    };
    save
      .mutateAsync({ isNew: goods === null, body })
      .then(() => {
        toast.success(goods ? t.saved : t.created);
        onClose();
      })
      .catch(() => undefined);
  };

  return (
    <Drawer
      open
      width={520}
      title={goods ? f.titleEdit(goods.name) : f.titleNew}
      onClose={onClose}
      destroyOnHidden
    >
      <Form<FormValues> form={form} layout="vertical" initialValues={initialValues(goods)} onFinish={submit}>
        <Form.Item
          name="goodsId"
          label={f.goodsId}
          extra={f.goodsIdHint}
          rules={[{ required: true, pattern: /^[a-z0-9_]{2,40}$/, message: f.goodsIdHint }]}
        >
          <Input disabled={goods !== null} />
        </Form.Item>
        <Form.Item name="serviceType" label={f.serviceType} rules={[{ required: true }]}>
          <Select
            disabled={goods !== null}
            options={SERVICE_TYPES.map((s) => ({ value: s, label: serviceTexts[s] ?? s }))}
          />
        </Form.Item>
        <Form.Item
          name="name"
          label={f.name}
          rules={[{ required: true, whitespace: true, max: GOODS_RULES.nameMax }]}
        >
          <Input showCount maxLength={GOODS_RULES.nameMax} />
        </Form.Item>
        <Form.Item name="description" label={f.description}>
          <Input.TextArea rows={3} showCount maxLength={GOODS_RULES.descriptionMax} />
        </Form.Item>
        <Space wrap align="start">
          <Form.Item
            name="unitPrice"
            label={f.unitPrice}
            extra={f.unitPriceHint}
            rules={[{ required: true, pattern: /^[0-9]{1,5}(\.[0-9]{1,2})?$/, message: f.unitPriceInvalid }]}
          >
            <Input style={{ width: 140 }} inputMode="decimal" />
          </Form.Item>
          <Form.Item name="unitSize" label={f.unitSize} extra={f.unitSizeHint} rules={[{ required: true }]}>
            <InputNumber min={1} precision={0} style={{ width: 140 }} />
          </Form.Item>
          <Form.Item
            name="unit"
            label={f.unit}
            rules={[{ required: true, whitespace: true, max: GOODS_RULES.unitMax }]}
          >
            <Input style={{ width: 100 }} />
          </Form.Item>
        </Space>
        <Space wrap>
          <Form.Item name="minQuantity" label={f.minQuantity} rules={[{ required: true }]}>
            <InputNumber min={1} precision={0} />
          </Form.Item>
          <Form.Item name="maxQuantity" label={f.maxQuantity} rules={[{ required: true }]}>
            <InputNumber min={1} precision={0} />
          </Form.Item>
          <Form.Item name="sortOrder" label={f.sortOrder}>
            <InputNumber precision={0} />
          </Form.Item>
        </Space>
        {isCommission && (
          <Form.Item name="turnaroundDays" label={f.turnaroundDays} extra={f.turnaroundHint}>
            <InputNumber min={1} max={GOODS_RULES.turnaroundDaysMax} precision={0} style={{ width: 140 }} />
          </Form.Item>
        )}
        <Card size="small" title={f.freeRule} style={{ marginBottom: 16 }}>
          {entitlement ? (
            <>
              <Form.Item
                name="freeEnabled"
                valuePropName="checked"
                label={f.freeEnabled(FREE_ENTITLEMENT_TEXTS[entitlement])}
              >
                <Switch />
              </Form.Item>
              {freeEnabled && serviceType === 'check' && (
                <Form.Item name="freeMax" label={f.freeMax}>
                  <InputNumber min={1} precision={0} style={{ width: 200 }} />
                </Form.Item>
              )}
              {freeEnabled && (
                <Form.Item
                  name="freeText"
                  label={f.freeText}
                  rules={[{ required: true, whitespace: true, max: GOODS_RULES.freeTextMax }]}
                >
                  <Input showCount maxLength={GOODS_RULES.freeTextMax} />
                </Form.Item>
              )}
            </>
          ) : (
            f.freeRuleNone
          )}
        </Card>
        <Space>
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {f.save}
          </Button>
          <Button onClick={onClose}>{f.cancel}</Button>
        </Space>
      </Form>
    </Drawer>
  );
}
