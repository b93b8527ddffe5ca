import type { LiveFigures } from '@kyfw/contracts';
import { formatPercent } from '../../lib/format';
import { checkTexts } from '../../texts';

const t = checkTexts.revise;

const aigcText = (score: number) => (Number.isFinite(score) ? score.toFixed(1) : '—');

/** The signed report's figures beside the working copy's (当前（修改后）, 参考), and the chapter table. */
export function ReviseFigures({ signed, current }: { signed: LiveFigures; current: LiveFigures | null }) {
  const rows = [
    {
      label: checkTexts.ratio,
      a: formatPercent(signed.ratio),
      b: current && formatPercent(current.ratio),
      key: 'ratio',
    },
    {
      label: checkTexts.ratioExcludingQuotes,
      a: formatPercent(signed.ratioExcludingQuotes),
      b: current && formatPercent(current.ratioExcludingQuotes),
      key: 'excl',
    },
    {
      label: checkTexts.maxSingle,
      a: formatPercent(signed.maxSingleSourceRatio),
      b: current && formatPercent(current.maxSingleSourceRatio),
      key: 'max',
    },
    { label: t.aigc, a: aigcText(signed.aigcScore), b: current && aigcText(current.aigcScore), key: 'aigc' },
  ];
  const currentSections = new Map((current?.sections ?? []).map((s) => [s.title, s]));
  return (
    <div className="rv-figures">
      <table className="rv-table" data-testid="revise-figures">
        <thead>
          <tr>
            <th scope="col" />
            <th scope="col">{t.signed}</th>
            <th scope="col">
              {t.current}
              <span className="rv-ref">{t.currentRef}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} data-figure={r.key}>
              <th scope="row">{r.label}</th>
              <td>{r.a}</td>
              <td className="rv-current" data-testid={`revise-current-${r.key}`}>
                {r.b ?? r.a}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {signed.sections.length > 1 && (
        <table className="rv-table rv-table--chapters" data-testid="revise-chapters">
          <thead>
            <tr>
              <th scope="col">{t.chapter}</th>
              <th scope="col">{t.signed}</th>
              <th scope="col">{t.current}</th>
            </tr>
          </thead>
          <tbody>
            {signed.sections.map((s) => {
              const now = currentSections.get(s.title);
              return (
                <tr key={`${s.index}-${s.title}`}>
                  <th scope="row" className="rv-chapter" title={s.title}>
                    {s.title}
                  </th>
                  <td>{formatPercent(s.ratio)}</td>
                  <td className="rv-current">{formatPercent(now ? now.ratio : s.ratio)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </div>
  );
}
