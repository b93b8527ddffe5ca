import { Button, DatePicker, Input, Select } from 'antd';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import { saveFile } from '../../../lib/save-file';
import { consoleTexts } from '../texts';

const t = consoleTexts.table;

/** What the console's tables filter on besides their own fields (the server's tableRangeFields). */
export interface TableRange {
  from?: string;
  to?: string;
}

interface TableToolsProps<S extends string> {
  /** The search box (omitted: none); its value is sent as `q`. */
  searchPlaceholder?: string;
  onSearch?: (q: string | undefined) => void;
  /** 提交日期 / 下单日期 …: the range's label. */
  rangeLabel: string;
  onRange: (range: TableRange) => void;
  sorts: readonly { value: S; label: string }[];
  sort: S;
  onSort: (sort: S) => void;
  /** 导出 CSV: the same filter's rows as a file (the server checks the role and audits it). */
  onExport?: () => void;
  exporting?: boolean;
}

/**
 * The console tables' toolbar: search, a date range (both days included, China time), the sort and
 * 导出 CSV. It wraps on a phone; the filters go to the server, which pages, sorts and exports.
 */
export function TableTools<S extends string>(props: TableToolsProps<S>) {
  return (
    <div className="console-table-tools">
      {props.onSearch && (
        <Input.Search
          allowClear
          placeholder={props.searchPlaceholder}
          aria-label={props.searchPlaceholder}
          onSearch={(v) => props.onSearch?.(v.trim() || undefined)}
          className="console-table-tools__search"
          enterButton={t.search}
        />
      )}
      <DatePicker.RangePicker
        aria-label={props.rangeLabel}
        placeholder={[`${props.rangeLabel}${t.from}`, t.to]}
        onChange={(_v, days) => props.onRange({ from: days[0] || undefined, to: days[1] || undefined })}
        className="console-table-tools__range"
      />
      <Select<S>
        aria-label={t.sort}
        value={props.sort}
        onChange={props.onSort}
        options={props.sorts.map((s) => ({ value: s.value, label: s.label }))}
        className="console-table-tools__sort"
      />
      {props.onExport && (
        <Button onClick={props.onExport} loading={props.exporting}>
          {t.export}
        </Button>
      )}
    </div>
  );
}

/** Downloads a console CSV export (`path`, the table's filter as the body) under `fileName`. */
export async function downloadCsv(path: string, filter: unknown, fileName: string): Promise<void> {
  const file = await unwrap(request(path, { data: filter, responseType: 'blob', timeout: 120_000 }));
  saveFile(file.blob, file.filename ?? fileName);
}
