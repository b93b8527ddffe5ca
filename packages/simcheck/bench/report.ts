/** The printed table. */
import type { PairScores } from './paraphrase.ts';
import type { TypeScores } from './score.ts';

export interface Measured {
  ms: number;
  maxRss: number;
  bytes?: number;
}

export interface CheckTiming {
  medianMs: number;
  times: number[];
  openMs: number;
  maxRss: number;
  chars: number;
  ratio?: number;
}

export interface EngineRun {
  name: string;
  eval?: { build: Measured; scores: TypeScores[]; evalMs: number; maxRss: number };
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

export function renderPairs(engine: EngineRun, baseline: EngineRun | undefined): string {
  if (!engine.pairs) return '';
  const rows: string[][] = [
    ['set', 'pairs', 'pos', 'engine', 'P', 'R', 'F1', 'acc', 'P (para kind)', 'R (para kind)'],
  ];
  for (const run of [engine, baseline]) {
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
): string {
  const s = engine.speed;
  const b = baseline?.speed;
  const bn = baseline?.name ?? '';
  const rows: string[][] = [['', engine.name, 'target', ...(baseline ? [bn, `${engine.name}/${bn}`] : [])]];
  const add = (
    label: string,
    v: number | undefined,
    bv: number | undefined,
    fmt: (x: number | undefined) => string,
    target?: string,
    ok?: boolean,
  ) =>
    rows.push([
      label,
      fmt(v),
      target ? target + mark(ok) : '',
      ...(baseline ? [fmt(bv), label.includes('rate') ? '' : ratio(v, bv)] : []),
    ]);
  const corpusLabel = `staged corpus (${corpus.records} records, ${(corpus.chars / 1e6).toFixed(2)}M chars)`;
  rows.push([corpusLabel, '', '', ...(baseline ? ['', ''] : [])]);
  add(
    '  index: time',
    s?.corpusBuild.ms,
    b?.corpusBuild.ms,
    sec,
    '< 20 s',
    s ? s.corpusBuild.ms < TARGETS.corpusIndexMs : undefined,
  );
  add('  index: size on disk', s?.corpusBuild.bytes, b?.corpusBuild.bytes, mb);
  add('  index: peak RSS', s?.corpusBuild.maxRss, b?.corpusBuild.maxRss, mb);
  add(
    `  check ${s ? (s.corpusCheck.chars / 1000).toFixed(1) : '30'}k-char thesis, median of ${s?.corpusCheck.times.length ?? 5}`,
    s?.corpusCheck.medianMs,
    b?.corpusCheck.medianMs,
    msf,
    '< 1 s',
    s ? s.corpusCheck.medianMs < TARGETS.corpusCheckMs : undefined,
  );
  add('  open index (once)', s?.corpusCheck.openMs, b?.corpusCheck.openMs, msf);
  add('  reported rate of the thesis (总文字复制比)', s?.corpusCheck.ratio, b?.corpusCheck.ratio, (x) =>
    pct(x, 1),
  );
  add('  check process peak RSS', s?.corpusCheck.maxRss, b?.corpusCheck.maxRss, mb);
  if (s?.libraryCheck) {
    add(
      '  same thesis vs evaluation library (median)',
      s.libraryCheck.medianMs,
      b?.libraryCheck?.medianMs,
      msf,
    );
  }
  if (s?.libraryCheck) {
    add(
      `  reported rate there (planted ${pct(plantedRate, 1)})`,
      s.libraryCheck.ratio,
      b?.libraryCheck?.ratio,
      (x) => pct(x, 1),
    );
  }
  if (s?.cliCheckMs !== undefined)
    add('  one CLI check (process start to JSON)', s.cliCheckMs, undefined, msf);
  const sc = engine.scale;
  const bsc = baseline?.scale;
  if (sc || bsc) {
    rows.push([
      `scale (${scale?.docs ?? '?'} documents, ${scale ? (scale.chars / 1e6).toFixed(0) : '?'}M chars)`,
      '',
      '',
      ...(baseline ? ['', ''] : []),
    ]);
    add('  index: time', sc?.build.ms, bsc?.build.ms, sec);
    add('  index: size on disk', sc?.build.bytes, bsc?.build.bytes, mb);
    add(
      '  index: peak RSS',
      sc?.build.maxRss,
      bsc?.build.maxRss,
      mb,
      '< 4 GB',
      sc ? sc.build.maxRss < TARGETS.scaleMemory : undefined,
    );
    add(
      '  check 30k thesis, median',
      sc?.check.medianMs,
      bsc?.check.medianMs,
      msf,
      '< 3 s',
      sc ? sc.check.medianMs < TARGETS.scaleCheckMs : undefined,
    );
    add('  open index (once)', sc?.check.openMs, bsc?.check.openMs, msf);
    add('  reported rate of the thesis', sc?.check.ratio, bsc?.check.ratio, (x) => pct(x, 1));
    add(
      '  check process peak RSS',
      sc?.check.maxRss,
      bsc?.check.maxRss,
      mb,
      '< 4 GB',
      sc ? sc.check.maxRss < TARGETS.scaleMemory : undefined,
    );
  }
  return table(rows, ['l', 'r', 'l', 'r', 'r']);
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
  engines: EngineRun[];
  table: string;
}

export function renderAll(json: BenchResults): string {
  const runs = json.engines;
  const real = runs.find((r) => r.name !== 'naive') ?? runs[0]!;
  const baseline = runs.find((r) => r.name === 'naive' && r !== real);
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
  }
  if (real.pairs) {
    parts.push(
      '',
      'PARAPHRASE PAIRS — predicted positive when sentence2 is matched to its own sentence1',
      renderPairs(real, baseline),
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
      ),
    );
  }
  for (const r of runs) for (const err of r.errors) parts.push(`! ${r.name}: ${err}`);
  return parts.join('\n');
}
