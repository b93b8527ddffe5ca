/** The printed table. */
import { type ExtractTiming, renderHostileFiles } from './extract.ts';
import type { OutputComparison } from './lib/compare.ts';
import type { PairScores } from './paraphrase.ts';
import type { CaseTypeScores, TypeScores } from './score.ts';

export interface Measured {
  ms: number;
  maxRss: number;
  bytes?: number;
}

export interface CheckTiming {
  medianMs: number;
  times: number[];
  openMs: number;
  /** First check after opening, of another document (a cold process); absent in older results. */
  coldMs?: number;
  maxRss: number;
  chars: number;
  ratio?: number;
}

export interface EngineRun {
  name: string;
  eval?: {
    build: Measured;
    scores: TypeScores[];
    /** recall and granularity per obfuscation type (runs before it have none) */
    byCaseType?: CaseTypeScores[];
    evalMs: number;
    maxRss: number;
    /** same engine, another index backend: are its reports those of the first real engine? */
    sameAs?: OutputComparison;
  };
  speed?: {
    corpusBuild: Measured;
    corpusCheck: CheckTiming;
    libraryCheck?: CheckTiming;
    cliCheckMs?: number;
  };
  pairs?: PairScores[];
  scale?: { build: Measured; check: CheckTiming };
  errors: string[];
}

const f3 = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? '   - ' : x.toFixed(3));
const f2 = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? '  - ' : x.toFixed(2));
const pct = (x: number | undefined, digits = 2) => (x === undefined ? '-' : `${(100 * x).toFixed(digits)}%`);
const sec = (ms: number | undefined) =>
  ms === undefined ? '-' : ms >= 10000 ? `${(ms / 1000).toFixed(1)} s` : `${(ms / 1000).toFixed(2)} s`;
const msf = (ms: number | undefined) =>
  ms === undefined ? '-' : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`;
const mb = (b: number | undefined) =>
  b === undefined ? '-' : b >= 1e9 ? `${(b / 1e9).toFixed(2)} GB` : `${(b / 1e6).toFixed(1)} MB`;
const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || b === 0 ? '-' : `${(a / b).toFixed(2)}×`;

/** Terminal columns: CJK and full-width characters take two. */
function width(s: string): number {
  let w = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    w +=
      (c >= 0x1100 && c <= 0x115f) ||
      (c >= 0x2e80 && c <= 0xa4cf) ||
      (c >= 0xac00 && c <= 0xd7a3) ||
      (c >= 0xf900 && c <= 0xfaff) ||
      (c >= 0xfe30 && c <= 0xfe4f) ||
      (c >= 0xff00 && c <= 0xff60) ||
      (c >= 0xffe0 && c <= 0xffe6) ||
      c >= 0x20000
        ? 2
        : 1;
  }
  return w;
}

function table(rows: string[][], aligns: Array<'l' | 'r'>): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => width(r[c] ?? ''))));
  return rows
    .map((r) =>
      r
        .map((cell, c) => {
          const pad = widths[c]! - width(cell);
          return aligns[c] === 'l' ? cell + ' '.repeat(pad) : ' '.repeat(pad) + cell;
        })
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export const TARGETS = {
  verbatim: 0.95,
  overall: 0.9,
  synonym: 0.85,
  reorder: 0.85,
  cleanFp: 0.005,
  rateErrorPp: 1,
  corpusIndexMs: 20_000,
  corpusCheckMs: 1_000,
  scaleCheckMs: 3_000,
  scaleMemory: 4e9,
} as const;

function mark(ok: boolean | undefined): string {
  return ok === undefined ? '' : ok ? ' ✓' : ' ✗';
}

export function renderEvaluation(engine: EngineRun, baseline: EngineRun | undefined): string {
  const e = engine.eval;
  if (!e) return '';
  const b = baseline?.eval;
  const bName = baseline?.name ?? '';
  const head = [
    'type',
    'docs',
    'cases',
    'P',
    'R',
    'gran',
    'plagdet',
    '',
    ...(b ? ['P', 'R', 'gran', 'plagdet', ''] : []),
    'FP chars',
    ...(b ? [bName] : []),
    'rate err',
    ...(b ? [bName] : []),
  ];
  const rows: string[][] = [
    [
      '',
      '',
      '',
      engine.name,
      '',
      '',
      '',
      '',
      ...(b ? [bName, '', '', '', ''] : []),
      '',
      ...(b ? [''] : []),
      '(pp)',
      ...(b ? [''] : []),
    ],
    head,
  ];
  for (const s of e.scores) {
    const nb = b?.scores.find((x) => x.type === s.type);
    const hasCases = s.plagiarism.cases > 0 || s.type === 'overall';
    const target = (TARGETS as Record<string, number>)[s.type];
    rows.push([
      s.type,
      String(s.docs),
      String(s.cases),
      hasCases ? f3(s.plagiarism.precision) : '',
      hasCases ? f3(s.plagiarism.recall) : '',
      hasCases ? f2(s.plagiarism.granularity) : '',
      hasCases ? f3(s.plagiarism.plagdet) : '',
      target !== undefined ? `≥${target}${mark(s.plagiarism.plagdet >= target)}` : '',
      ...(nb
        ? [
            hasCases ? f3(nb.plagiarism.precision) : '',
            hasCases ? f3(nb.plagiarism.recall) : '',
            hasCases ? f2(nb.plagiarism.granularity) : '',
            hasCases ? f3(nb.plagiarism.plagdet) : '',
            '',
          ]
        : b
          ? ['', '', '', '', '']
          : []),
      pct(s.fpRate) + (s.type === 'clean' ? mark(s.fpRate <= TARGETS.cleanFp) : ''),
      ...(b ? [pct(nb?.fpRate)] : []),
      s.rateError.toFixed(2) + (s.type === 'overall' ? mark(s.rateError <= TARGETS.rateErrorPp) : ''),
      ...(b ? [nb ? nb.rateError.toFixed(2) : '-'] : []),
    ]);
  }
  const lines = [
    table(rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'l', 'r', 'r', 'r', 'r', 'l', 'r', 'r', 'r', 'r']),
  ];
  const overall = e.scores.find((s) => s.type === 'overall')!;
  const bOverall = b?.scores.find((s) => s.type === 'overall');
  const quoted = e.scores.find((s) => s.type === 'quoted');
  const bQuoted = b?.scores.find((s) => s.type === 'quoted');
  const q = overall.quoting;
  lines.push('');
  lines.push(
    `quoted & cited passages: typed quoted P ${f3(q?.precision)} R ${f3(q?.recall)} plagdet ${f3(q?.plagdet)}; ` +
      `counted as plagiarism ${pct(overall.quotedAsPlagiarism)}${b ? ` (${bName} ${pct(bOverall?.quotedAsPlagiarism)})` : ''}` +
      (quoted ? `; rate error incl. quotes on quoted docs ${quoted.rateErrorTotal.toFixed(2)} pp` : '') +
      (bQuoted ? ` (${bName} ${bQuoted.rateErrorTotal.toFixed(2)})` : ''),
  );
  lines.push(
    `short overlaps (<13 chars) flagged: ${overall.shortOverlapsHit}/${overall.shortOverlaps}${mark(overall.shortOverlapsHit === 0)}` +
      (bOverall ? ` (${bName} ${bOverall.shortOverlapsHit}/${bOverall.shortOverlaps})` : ''),
  );
  lines.push(
    `index of the evaluation library: ${sec(e.build.ms)}, ${mb(e.build.bytes)}; all ${overall.docs} checks ${sec(overall.checkMs)} in-process` +
      (b ? ` (${bName} ${sec(b.build.ms)}, ${mb(b.build.bytes)}; checks ${sec(bOverall?.checkMs)})` : ''),
  );
  return lines.join('\n');
}

export function renderPairs(
  engine: EngineRun,
  baseline: EngineRun | undefined,
  extras: EngineRun[] = [],
): string {
  if (!engine.pairs) return '';
  const rows: string[][] = [
    ['set', 'pairs', 'pos', 'engine', 'P', 'R', 'F1', 'acc', 'P (para kind)', 'R (para kind)'],
  ];
  for (const run of [engine, ...extras, baseline]) {
    for (const p of run?.pairs ?? []) {
      rows.push([
        p.name,
        String(p.pairs),
        String(p.positives),
        run!.name,
        f3(p.any.precision),
        f3(p.any.recall),
        f3(p.any.f1),
        f3(p.any.accuracy),
        f3(p.paraphraseOnly.precision),
        f3(p.paraphraseOnly.recall),
      ]);
    }
  }
  return table(rows, ['l', 'r', 'r', 'l', 'r', 'r', 'r', 'r', 'r', 'r']);
}

export function renderSpeed(
  engine: EngineRun,
  baseline: EngineRun | undefined,
  corpus: { records: number; chars: number },
  scale?: { docs: number; chars: number },
  plantedRate?: number,
  extras: EngineRun[] = [],
): string {
  const s = engine.speed;
  const bn = baseline?.name ?? '';
  const blank = (n: number) => Array<string>(n).fill('');
  const rows: string[][] = [
    [
      '',
      engine.name,
      'target',
      ...extras.map((x) => x.name),
      ...(baseline ? [bn, `${engine.name}/${bn}`, ...extras.map((x) => `${x.name}/${bn}`)] : []),
    ],
  ];
  const section = (label: string) =>
    rows.push([label, '', '', ...blank(extras.length), ...(baseline ? blank(2 + extras.length) : [])]);
  const add = (
    label: string,
    get: (r: EngineRun | undefined) => number | undefined,
    fmt: (x: number | undefined) => string,
    target?: string,
    ok?: boolean,
  ) => {
    const bv = get(baseline);
    const noRatio = label.includes('rate');
    rows.push([
      label,
      fmt(get(engine)),
      target ? target + mark(ok) : '',
      ...extras.map((x) => fmt(get(x))),
      ...(baseline
        ? [
            fmt(bv),
            noRatio ? '' : ratio(get(engine), bv),
            ...extras.map((x) => (noRatio ? '' : ratio(get(x), bv))),
          ]
        : []),
    ]);
  };
  section(`staged corpus (${corpus.records} records, ${(corpus.chars / 1e6).toFixed(2)}M chars)`);
  add(
    '  index: time',
    (r) => r?.speed?.corpusBuild.ms,
    sec,
    '< 20 s',
    s ? s.corpusBuild.ms < TARGETS.corpusIndexMs : undefined,
  );
  add('  index: size on disk', (r) => r?.speed?.corpusBuild.bytes, mb);
  add('  index: peak RSS', (r) => r?.speed?.corpusBuild.maxRss, mb);
  add(
    `  check ${s ? (s.corpusCheck.chars / 1000).toFixed(1) : '30'}k-char thesis, median of ${s?.corpusCheck.times.length ?? 5}${s?.corpusCheck.coldMs !== undefined ? ' (warm)' : ''}`,
    (r) => r?.speed?.corpusCheck.medianMs,
    msf,
    '< 1 s',
    s ? s.corpusCheck.medianMs < TARGETS.corpusCheckMs : undefined,
  );
  if ([engine, baseline, ...extras].some((r) => r?.speed?.corpusCheck.coldMs !== undefined))
    add('  first check after opening (another document)', (r) => r?.speed?.corpusCheck.coldMs, msf);
  add('  open index (once)', (r) => r?.speed?.corpusCheck.openMs, msf);
  add(
    '  reported rate of the thesis (总文字复制比)',
    (r) => r?.speed?.corpusCheck.ratio,
    (x) => pct(x, 1),
  );
  add('  check process peak RSS', (r) => r?.speed?.corpusCheck.maxRss, mb);
  if (s?.libraryCheck || extras.some((x) => x.speed?.libraryCheck)) {
    add('  same thesis vs evaluation library (median)', (r) => r?.speed?.libraryCheck?.medianMs, msf);
    add(
      `  reported rate there (planted ${pct(plantedRate, 1)})`,
      (r) => r?.speed?.libraryCheck?.ratio,
      (x) => pct(x, 1),
    );
  }
  if (s?.cliCheckMs !== undefined || extras.some((x) => x.speed?.cliCheckMs !== undefined)) {
    rows.push([
      '  one CLI check (process start to JSON)',
      msf(s?.cliCheckMs),
      '',
      ...extras.map((x) => msf(x.speed?.cliCheckMs)),
      ...(baseline ? ['-', '-', ...extras.map(() => '-')] : []),
    ]);
  }
  if ([engine, baseline, ...extras].some((r) => r?.scale)) {
    section(
      `scale (${scale?.docs ?? '?'} documents, ${scale ? (scale.chars / 1e6).toFixed(0) : '?'}M chars)`,
    );
    const sc = engine.scale;
    add('  index: time', (r) => r?.scale?.build.ms, sec);
    add('  index: size on disk', (r) => r?.scale?.build.bytes, mb);
    add(
      '  index: peak RSS',
      (r) => r?.scale?.build.maxRss,
      mb,
      '< 4 GB',
      sc ? sc.build.maxRss < TARGETS.scaleMemory : undefined,
    );
    add(
      `  check 30k thesis, median${sc?.check.coldMs !== undefined ? ' (warm)' : ''}`,
      (r) => r?.scale?.check.medianMs,
      msf,
      '< 3 s',
      sc ? sc.check.medianMs < TARGETS.scaleCheckMs : undefined,
    );
    if ([engine, baseline, ...extras].some((r) => r?.scale?.check.coldMs !== undefined))
      add('  first check after opening (another document)', (r) => r?.scale?.check.coldMs, msf);
    add('  open index (once)', (r) => r?.scale?.check.openMs, msf);
    add(
      '  reported rate of the thesis',
      (r) => r?.scale?.check.ratio,
      (x) => pct(x, 1),
    );
    add(
      '  check process peak RSS',
      (r) => r?.scale?.check.maxRss,
      mb,
      '< 4 GB',
      sc ? sc.check.maxRss < TARGETS.scaleMemory : undefined,
    );
  }
  return table(rows, ['l', 'r', 'l', ...extras.map((): 'r' => 'r'), 'r', 'r', ...extras.map((): 'r' => 'r')]);
}

/** One line per extra engine under the evaluation: its overall scores and whether its reports are the first engine's. */
export function renderEvaluationExtra(run: EngineRun): string {
  const e = run.eval;
  if (!e) return '';
  const o = e.scores.find((x) => x.type === 'overall');
  let line =
    `${run.name}: overall P ${f3(o?.plagiarism.precision)} R ${f3(o?.plagiarism.recall)} gran ${f2(o?.plagiarism.granularity)} ` +
    `plagdet ${f3(o?.plagiarism.plagdet)}, FP chars ${pct(o?.fpRate)}, rate err ${o ? o.rateError.toFixed(2) : '-'} pp; ` +
    `index ${sec(e.build.ms)}, ${mb(e.build.bytes)}; all ${o?.docs ?? '?'} checks ${sec(o?.checkMs)}`;
  const c = e.sameAs;
  if (c) {
    line +=
      c.identical === c.total
        ? `\n  reports identical to ${c.against}'s on ${c.identical}/${c.total} documents ✓ (so every row above is the same for ${run.name})`
        : `\n  reports identical to ${c.against}'s on ${c.identical}/${c.total} documents ✗ — differ: ${c.differing.join(', ')}`;
  }
  return line;
}

export interface BenchResults {
  date: string;
  /** this run's folder: per-document outputs (eval-<engine>.json), pair outputs */
  runDir: string;
  commit: string;
  machine: { cpus: number; cpu: string; memory: number; node: string };
  args: string[];
  testSet: {
    seed: number;
    mode: string;
    dir: string;
    docs: number;
    chars: number;
    cases: number;
    leakChars: number;
    libraryRecords: number;
    libraryChars: number;
    corpusRecords: number;
    corpusChars: number;
    speedThesis: string;
    speedThesisChars: number;
    speedThesisPlantedRate: number;
    synonymStats: { words: number; replaced: number };
  };
  scaleLibrary?: { docs: number; chars: number; bytes: number; generatedMs: number; path: string };
  /** the server simcheck-pg ran on */
  postgres?: { source: string; version: string };
  engines: EngineRun[];
  /** extraction of hostile .docx files (extract.ts), with the speed part */
  hostileFiles?: ExtractTiming[];
  table: string;
}

export function renderAll(json: BenchResults): string {
  const runs = json.engines;
  const ran = (r: EngineRun) => Boolean(r.eval || r.speed || r.pairs || r.scale);
  const real =
    runs.find((r) => r.name !== 'naive' && ran(r)) ?? runs.find((r) => r.name !== 'naive') ?? runs[0]!;
  const baseline = runs.find((r) => r.name === 'naive' && r !== real);
  // more real-engine runs (another backend, the CLI): a column of their own beside the first
  const extras = runs.filter((r) => r !== real && r !== baseline && ran(r));
  const t = json.testSet;
  const m = json.machine;
  const parts = [
    `kyfw simcheck benchmark — ${json.date.slice(0, 16).replace('T', ' ')} UTC, commit ${json.commit}, ${m.cpus} cores (${m.cpu}), ${(m.memory / 2 ** 30).toFixed(0)} GiB, Node ${m.node}`,
    `test set: seed ${t.seed}, ${t.mode}, ${t.docs} documents, ${(t.chars / 1e6).toFixed(2)}M characters, ${t.cases} planted cases; ` +
      `library ${t.libraryRecords} records (${(t.libraryChars / 1e6).toFixed(2)}M characters); unplanned overlaps left out: ${t.leakChars} chars`,
  ];
  if (real.eval) {
    parts.push(
      '',
      'EVALUATION — PAN character-level measures over plagiarism cases (quoted matches excluded), per document type',
      renderEvaluation(real, baseline),
    );
    for (const x of extras) if (x.eval) parts.push(renderEvaluationExtra(x));
    const byType = renderByCaseType(real, baseline);
    if (byType) parts.push('', byType);
  }
  if (real.pairs) {
    parts.push(
      '',
      'PARAPHRASE PAIRS — predicted positive when sentence2 is matched to its own sentence1',
      renderPairs(real, baseline, extras),
    );
  }
  if (real.speed || real.scale) {
    parts.push(
      '',
      `SPEED — each build/check in its own process; wall clock; thesis = ${t.speedThesis} (${t.speedThesisChars} chars)`,
      renderSpeed(
        real,
        baseline,
        { records: t.corpusRecords, chars: t.corpusChars },
        json.scaleLibrary,
        t.speedThesisPlantedRate,
        extras,
      ),
    );
    if (json.postgres && [real, ...extras].some((r) => r.name === 'simcheck-pg' && (r.speed || r.scale))) {
      parts.push(
        `simcheck-pg: PostgreSQL ${json.postgres.version.split(' ')[0]}, ${json.postgres.source}; its size is ` +
          'pg_total_relation_size of its tables (heap, indexes, TOAST) in a schema of its own; peak RSS is the ' +
          'Node process only (the server not counted)',
      );
    }
  }
  if (json.hostileFiles) parts.push('', renderHostileFiles(json.hostileFiles));
  for (const r of runs) for (const err of r.errors) parts.push(`! ${r.name}: ${err}`);
  return parts.join('\n');
}

/**
 * Recall and granularity per obfuscation type: the cases of each type wherever they were planted
 * (the mixed documents hold every type). "gran" counts touching matches of one source as one
 * detection, as the table above; "marks" counts every match: the pieces a student sees over one
 * disguised passage (a verbatim stretch inside a paraphrase is a mark of its own).
 */
export function renderByCaseType(engine: EngineRun, baseline: EngineRun | undefined): string {
  const rows = engine.eval?.byCaseType;
  if (!rows) return '';
  const base = new Map((baseline?.eval?.byCaseType ?? []).map((r) => [r.type, r]));
  const f = (x: number, d = 3) => x.toFixed(d);
  const lines = [
    'PER OBFUSCATION TYPE — recall and granularity over the cases of each type in all documents',
    `${'type'.padEnd(12)} ${'cases'.padStart(5)}  ${engine.name.padEnd(22)}${baseline ? `  ${baseline.name}` : ''}`,
    `${''.padEnd(12)} ${''.padStart(5)}  ${'R'.padStart(6)} ${'gran'.padStart(5)} ${'marks'.padStart(6)}${baseline ? `    ${'R'.padStart(6)} ${'gran'.padStart(5)} ${'marks'.padStart(6)}` : ''}`,
  ];
  for (const r of rows) {
    const b = base.get(r.type);
    lines.push(
      `${r.type.padEnd(12)} ${String(r.cases).padStart(5)}  ${f(r.recall).padStart(6)} ${f(r.granularity, 2).padStart(5)} ${f(r.granularityShown, 2).padStart(6)}` +
        (b
          ? `    ${f(b.recall).padStart(6)} ${f(b.granularity, 2).padStart(5)} ${f(b.granularityShown, 2).padStart(6)}`
          : ''),
    );
  }
  return lines.join('\n');
}
