import { Alert, Button, Input, InputNumber } from 'antd';
import { useState } from 'react';
import { useSearchReferences } from '../api/search-references';
import { writingTexts as T } from '../texts';
import type { WritingView } from '../types';

/**
 * Searching the library's real records (title and keywords, 学科 first, a year range) before
 * ordering: the server's message says how many it found; nothing is invented.
 */
export function ReferenceSearch({ w }: { w: WritingView }) {
  const [keyword, setKeyword] = useState(w.title ?? w.topic);
  const [yearFrom, setYearFrom] = useState<number | null>(null);
  const [yearTo, setYearTo] = useState<number | null>(null);
  const search = useSearchReferences();
  const run = () =>
    search.mutate({
      keyword,
      discipline: w.discipline,
      limit: 10,
      ...(yearFrom ? { yearFrom } : {}),
      ...(yearTo ? { yearTo } : {}),
    });
  return (
    <section className="card-surface wr__card" data-testid="writing-references">
      <h3 className="wr__h">{T.referencesTitle}</h3>
      <p className="muted">{T.referencesHint}</p>
      <div className="wr__revise">
        <Input
          aria-label={T.referencesKeyword}
          value={keyword}
          maxLength={100}
          onChange={(e) => setKeyword(e.target.value)}
          onPressEnter={run}
          style={{ flex: '1 1 240px', width: 'auto', minWidth: 0 }}
        />
        <InputNumber
          aria-label={T.yearFrom}
          placeholder={T.yearFrom}
          min={1900}
          max={2100}
          value={yearFrom}
          onChange={setYearFrom}
        />
        <InputNumber
          aria-label={T.yearTo}
          placeholder={T.yearTo}
          min={1900}
          max={2100}
          value={yearTo}
          onChange={setYearTo}
        />
        <Button onClick={run} loading={search.isPending} disabled={!keyword.trim()}>
          {T.referencesSearch}
        </Button>
      </div>
      {search.data?.message && (
        <Alert
          type={search.data.total > 0 ? 'info' : 'warning'}
          showIcon
          message={search.data.message}
          data-testid="writing-references-count"
        />
      )}
      {search.data && search.data.list.length > 0 && (
        <ol className="wr__refs">
          {search.data.list.map((s) => (
            <li key={`${s.title}-${s.year}`}>{s.formatted}</li>
          ))}
        </ol>
      )}
    </section>
  );
}
