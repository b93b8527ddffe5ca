import type { LiveFigures, RevisionVersion } from '@kyfw/contracts';
import { Button, Empty, Select, Space } from 'antd';
import { useMemo, useState } from 'react';
import { formatPercent, formatTime } from '../../lib/format';
import { compareVersions, type VersionLike } from '../../lib/revise';
import { checkTexts } from '../../texts';

const t = checkTexts.revise;

interface Choice extends VersionLike {
  key: string;
  label: string;
}

const arrow = (a: number, b: number | null) => {
  if (b === null || !Number.isFinite(a) || !Number.isFinite(b)) return '';
  if (Math.round(b * 1000) === Math.round(a * 1000)) return '→';
  return b < a ? '↓' : '↑';
};

/** The saved versions with their figures, 保存版本, and the comparison of two of them (原稿 and 当前 included). */
export function VersionsPanel(props: {
  lines: readonly string[];
  signed: LiveFigures;
  draft: VersionLike | null;
  versions: readonly RevisionVersion[];
  saving: boolean;
  downloading: boolean;
  onSave: () => void;
  onDownload: (versionNo: number) => void;
}) {
  const choices: Choice[] = useMemo(
    () => [
      { key: 'original', label: t.original, edits: [], figures: props.signed },
      ...props.versions.map((v) => ({ key: `v${v.versionNo}`, label: t.versionName(v.versionNo), ...v })),
      ...(props.draft ? [{ key: 'draft', label: t.draft, ...props.draft }] : []),
    ],
    [props.signed, props.versions, props.draft],
  );
  const [from, setFrom] = useState('original');
  const [to, setTo] = useState<string | null>(null);
  const a = choices.find((c) => c.key === from) ?? choices[0]!;
  const b =
    choices.find((c) => c.key === (to ?? choices[choices.length - 1]!.key)) ?? choices[choices.length - 1]!;
  const compared = useMemo(() => compareVersions(props.lines, a, b), [props.lines, a, b]);
  const rows = [
    { label: checkTexts.ratio, a: a.figures.ratio, b: b.figures.ratio },
    {
      label: checkTexts.ratioExcludingQuotes,
      a: a.figures.ratioExcludingQuotes,
      b: b.figures.ratioExcludingQuotes,
    },
    { label: checkTexts.maxSingle, a: a.figures.maxSingleSourceRatio, b: b.figures.maxSingleSourceRatio },
  ];
  const aigc = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '—');
  return (
    <section className="rv-block" aria-label={t.versions} data-testid="revise-versions">
      <h4 className="rv-block__title">
        {t.versions}
        <Button size="small" onClick={props.onSave} loading={props.saving} disabled={!props.draft}>
          {t.saveVersion}
        </Button>
      </h4>
      {props.versions.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t.versionsNone} />
      ) : (
        <ul className="rv-versions">
          {props.versions.map((v) => (
            <li key={v.versionNo} data-testid="revise-version">
              <strong>{t.versionName(v.versionNo)}</strong>
              <span className="muted">{formatTime(v.createdAt)}</span>
              <span>
                {checkTexts.ratio} {formatPercent(v.figures.ratio)}
              </span>
              <span>
                {t.aigc} {aigc(v.figures.aigcScore)}
              </span>
              <span className="muted">
                {t.edited} {v.edits.length}
              </span>
              <Button
                size="small"
                type="link"
                loading={props.downloading}
                onClick={() => props.onDownload(v.versionNo)}
              >
                {t.downloadVersion}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {choices.length > 1 && (
        <div className="rv-compare" data-testid="revise-compare">
          <h5>{t.compareTitle}</h5>
          <Space wrap>
            <span>{t.compareFrom}</span>
            <Select
              size="small"
              value={a.key}
              onChange={setFrom}
              options={choices.map((c) => ({ value: c.key, label: c.label }))}
              style={{ minWidth: 140 }}
              aria-label={t.compareFrom}
            />
            <span>{t.compareTo}</span>
            <Select
              size="small"
              value={b.key}
              onChange={setTo}
              options={choices.map((c) => ({ value: c.key, label: c.label }))}
              style={{ minWidth: 140 }}
              aria-label={t.compareTo}
            />
          </Space>
          <table className="rv-table">
            <thead>
              <tr>
                <th scope="col">{t.figure}</th>
                <th scope="col">{a.label}</th>
                <th scope="col">{b.label}</th>
                <th scope="col">{t.change}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.label}>
                  <th scope="row">{r.label}</th>
                  <td>{formatPercent(r.a)}</td>
                  <td>{formatPercent(r.b)}</td>
                  <td>{arrow(r.a, r.b)}</td>
                </tr>
              ))}
              <tr>
                <th scope="row">{t.aigc}</th>
                <td>{aigc(a.figures.aigcScore)}</td>
                <td>{aigc(b.figures.aigcScore)}</td>
                <td>{arrow(a.figures.aigcScore / 100, b.figures.aigcScore / 100)}</td>
              </tr>
              {compared.chapters.map((c) => (
                <tr key={`ch-${c.title}`} className="rv-table__chapter">
                  <th scope="row" title={c.title}>
                    {c.title}
                  </th>
                  <td>{formatPercent(c.before)}</td>
                  <td>{formatPercent(c.after)}</td>
                  <td>{arrow(c.before, c.after)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h5>{t.changedParagraphs(compared.changed.length)}</h5>
          {compared.changed.length === 0 ? (
            <p className="muted">{t.noChanges}</p>
          ) : (
            <ul className="rv-diff">
              {compared.changed.map((c) => (
                <li key={c.index}>
                  <div className="muted">{t.paragraphNo(c.index)}</div>
                  <del>{c.before}</del>
                  <ins>{c.after}</ins>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
