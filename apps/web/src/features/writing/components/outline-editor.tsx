import { WRITING_LIMITS } from '@kyfw/contracts';
import { Button, Checkbox, Input, InputNumber } from 'antd';
import { writingTexts as T } from '../texts';
import type { Flag, OutlineItem } from '../types';

const FLAGS = ['form', 'formula', 'code', 'picture'] as const;

/** Parents' budgets follow their children, as the server recomputes them. */
export function sumOutline(items: readonly OutlineItem[]): OutlineItem[] {
  return items.map((i) =>
    i.children && i.children.length > 0
      ? {
          ...i,
          children: sumOutline(i.children),
          wordCount: sumOutline(i.children).reduce((s, c) => s + c.wordCount, 0),
        }
      : i,
  );
}

const blank = (name: string): OutlineItem => ({
  name,
  wordCount: 500,
  form: '0',
  formula: '0',
  code: '0',
  picture: '0',
});

function update(
  items: OutlineItem[],
  path: number[],
  change: (list: OutlineItem[], index: number) => OutlineItem[],
): OutlineItem[] {
  if (path.length === 1) return change([...items], path[0]!);
  const [head, ...rest] = path;
  return items.map((item, i) =>
    i === head ? { ...item, children: update(item.children ?? [], rest, change) } : item,
  );
}

/**
 * The outline editor: rename, set budgets and flags, add and delete items, move them up and down,
 * children down to the third level (spec §3).
 */
export function OutlineEditor({
  value,
  onChange,
}: {
  value: OutlineItem[];
  onChange: (next: OutlineItem[]) => void;
}) {
  const set = (path: number[], change: (list: OutlineItem[], index: number) => OutlineItem[]) =>
    onChange(sumOutline(update(value, path, change)));

  const rows = (items: OutlineItem[], prefix: number[]): React.ReactNode[] =>
    items.flatMap((item, i) => {
      const path = [...prefix, i];
      const label = path.map((n) => n + 1).join('.');
      const leaf = !item.children || item.children.length === 0;
      return [
        <div
          key={label}
          className={`wr-outline__row wr-outline__row--l${path.length}`}
          data-testid={`outline-row-${label}`}
        >
          <span className="wr-outline__num">{path.length === 1 ? `第${label}章` : label}</span>
          <Input
            aria-label={`条目 ${label} 名称`}
            value={item.name}
            maxLength={WRITING_LIMITS.outlineName}
            onChange={(e) =>
              set(path, (list, k) => list.map((x, j) => (j === k ? { ...x, name: e.target.value } : x)))
            }
          />
          <InputNumber
            aria-label={`条目 ${label} 字数`}
            min={0}
            max={WRITING_LIMITS.outlineWords}
            step={100}
            value={item.wordCount}
            disabled={!leaf}
            addonAfter="字"
            onChange={(v) =>
              set(path, (list, k) => list.map((x, j) => (j === k ? { ...x, wordCount: Number(v ?? 0) } : x)))
            }
          />
          {leaf &&
            FLAGS.map((f) => (
              <Checkbox
                key={f}
                checked={item[f] === '1'}
                onChange={(e) =>
                  set(path, (list, k) =>
                    list.map((x, j) => (j === k ? { ...x, [f]: (e.target.checked ? '1' : '0') as Flag } : x)),
                  )
                }
              >
                {T.flags[f]}
              </Checkbox>
            ))}
          <span className="wr-outline__actions">
            <Button
              size="small"
              disabled={i === 0}
              onClick={() =>
                set(path, (list, k) => {
                  [list[k - 1], list[k]] = [list[k]!, list[k - 1]!];
                  return list;
                })
              }
            >
              {T.moveUp}
            </Button>
            <Button
              size="small"
              disabled={i === items.length - 1}
              onClick={() =>
                set(path, (list, k) => {
                  [list[k + 1], list[k]] = [list[k]!, list[k + 1]!];
                  return list;
                })
              }
            >
              {T.moveDown}
            </Button>
            {path.length < 3 && (
              <Button
                size="small"
                onClick={() =>
                  set(path, (list, k) =>
                    list.map((x, j) =>
                      j === k ? { ...x, children: [...(x.children ?? []), blank('新条目')] } : x,
                    ),
                  )
                }
              >
                {T.addChild}
              </Button>
            )}
            <Button
              size="small"
              danger
              disabled={path.length === 1 && value.length === 1}
              onClick={() => set(path, (list, k) => list.filter((_, j) => j !== k))}
            >
              {T.remove}
            </Button>
          </span>
        </div>,
        ...(item.children ? rows(item.children, path) : []),
      ];
    });

  return (
    <div className="wr-outline">
      {rows(value, [])}
      <Button onClick={() => onChange([...value, blank('新的一章')])}>{T.addChapter}</Button>
    </div>
  );
}
