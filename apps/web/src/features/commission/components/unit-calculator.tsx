import { convertUnit, DIMENSION_NAMES, DIMENSIONS, type Dimension, listUnits } from '@kyfw/contracts';
import { InputNumber, Select, Space } from 'antd';
import { useState } from 'react';
import { commissionTexts as T } from '../texts';

/**
 * The in-page calculator of spec §9: the traditional units (里 时辰 斤 两 钱 斗 斛 亩 垧 尺 寸 丈)
 * and the SI units they convert to. Placed beside the 科技查新 and 成果评价 forms, whose technical
 * summaries often quote yields in 斤/亩, areas in 亩/垧 or historical measures (docs/api/commission.md).
 */
export function UnitCalculator() {
  const [dimension, setDimension] = useState<Dimension>('area');
  const units = listUnits(dimension);
  const [from, setFrom] = useState<string>('Mu');
  const [value, setValue] = useState<number | null>(1);
  const source = units.find((u) => u.id === from) ?? units[0]!;
  const pick = (d: Dimension) => {
    setDimension(d);
    setFrom(listUnits(d)[0]!.id);
  };
  return (
    <section className="unit-calculator card-surface" aria-label={T.calculator.title}>
      <h3>{T.calculator.title}</h3>
      <p className="muted">{T.calculator.help}</p>
      <Space wrap>
        <Select
          aria-label={T.calculator.dimension}
          value={dimension}
          onChange={pick}
          options={DIMENSIONS.map((d) => ({ value: d, label: DIMENSION_NAMES[d] }))}
          style={{ width: 90 }}
        />
        <InputNumber
          aria-label={T.calculator.value}
          value={value}
          onChange={setValue}
          style={{ width: 120 }}
        />
        <Select
          aria-label={T.calculator.from}
          value={source.id}
          onChange={setFrom}
          options={units.map((u) => ({ value: u.id, label: u.name }))}
          style={{ width: 110 }}
        />
      </Space>
      <ul className="unit-calculator__results" aria-label={T.calculator.result}>
        {value === null || !Number.isFinite(value) ? (
          <li className="muted">{T.calculator.invalid}</li>
        ) : (
          units
            .filter((u) => u.id !== source.id)
            .map((u) => (
              <li key={u.id}>
                <span>{u.name}</span>
                <strong>
                  {convertUnit(value, source.id, u.id).toLocaleString('zh-CN', { maximumFractionDigits: 6 })}
                </strong>
              </li>
            ))
        )}
      </ul>
    </section>
  );
}
