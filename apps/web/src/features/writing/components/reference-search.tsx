import { Alert, Button, Input, InputNumber } from 'antd';
import { useState } from 'react';
import { useAnalyseReferences, useSearchReferences } from '../api/search-references';
import { writingTexts as T } from '../texts';
import type { WritingView } from '../types';

/**
 * Searching the library's real records (title, keywords and abstract, 学科 first, a year range) and
 * the student's own references before ordering: the server's message says how many it found;
 * nothing is invented. The student's references are pasted below and read by the server.
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
      writingId: w.writingId,
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
            <li key={`${s.origin}-${s.title}-${s.year}`}>
              {s.formatted}
              {s.origin === 'supplied' && <span className="muted">{T.supplied}</span>}
            </li>
          ))}
        </ol>
      )}
      <OwnReferences writingId={w.writingId} />
    </section>
  );
}

/** Pasting the student's own references: each line read by the server, the unreadable ones shown. */
function OwnReferences({ writingId }: { writingId: string }) {
  const [text, setText] = useState('');
  const analyse = useAnalyseReferences(writingId);
  const parsed = analyse.data?.list ?? [];
  const bad = parsed.filter((p) => !p.formatted);
  return (
    <div className="wr__own-refs">
      <p>
        <strong>{T.ownReferences}</strong>
      </p>
      <Input.TextArea
        aria-label={T.ownReferences}
        placeholder={T.ownReferencesPlaceholder}
        value={text}
        maxLength={20_000}
        autoSize={{ minRows: 2, maxRows: 6 }}
        onChange={(e) => setText(e.target.value)}
      />
      <p className="muted">{T.ownReferencesHint}</p>
      <Button onClick={() => analyse.mutate(text)} loading={analyse.isPending} disabled={!text.trim()}>
        {T.ownReferencesAdd}
      </Button>
      {analyse.data && (
        <Alert
          type={bad.length > 0 ? 'warning' : 'success'}
          showIcon
          message={T.ownReferencesAdded(parsed.length - bad.length, bad.length)}
          description={
            bad.length > 0 ? (
              <ul>
                {bad.map((p) => (
                  <li key={p.raw}>
                    {T.ownReferenceUnreadable}
                    {p.raw}
                  </li>
                ))}
              </ul>
            ) : undefined
          }
          data-testid="writing-own-references"
        />
      )}
    </div>
  );
}
