import sharp, { type OverlayOptions } from 'sharp';
import { FONT_FILES } from '../check/report/fonts.ts';
import type { FigureSpec } from './writing.figure.ts';

/**
 * Draws a figure spec as a PNG for the .docx: the shapes as SVG, the text (Chinese labels) rendered
 * by sharp with the Noto Sans SC file the PDF reports embed, so the chart does not depend on the
 * fonts installed on the machine. Twice the size it is shown at, for print.
 */

export const CHART_SIZE = { width: 1200, height: 720 } as const;
const FONT = 'Noto Sans SC';
const COLORS = ['#4472C4', '#ED7D31', '#A5A5A5', '#FFC000', '#5B9BD5', '#70AD47'];
const COLORS_PIE = [...COLORS, '#264478', '#9E480E', '#636363', '#997300', '#255E91', '#43682B'];

interface Label {
  text: string;
  /** Anchor: the label's centre (x) and top (y), or its left/right edge per `align`. */
  x: number;
  y: number;
  size: number;
  color?: string;
  align?: 'left' | 'centre' | 'right';
  /** Wrap within this width (px). */
  width?: number;
  /** Vertically centre the label on y instead of hanging it from y. */
  middle?: boolean;
}

function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

async function renderLabel(label: Label): Promise<OverlayOptions> {
  const { data, info } = await sharp({
    text: {
      text: `<span foreground="${label.color ?? '#333333'}">${escapeMarkup(label.text)}</span>`,
      font: `${FONT} ${label.size}`,
      fontfile: FONT_FILES.regular,
      dpi: 72,
      rgba: true,
      ...(label.width ? { width: Math.round(label.width), wrap: 'word-char' as const } : {}),
      align: label.align === 'left' ? 'left' : label.align === 'right' ? 'right' : 'centre',
    },
  })
    .png()
    .toBuffer({ resolveWithObject: true });
  let left =
    label.align === 'left'
      ? label.x
      : label.align === 'right'
        ? label.x - info.width
        : label.x - info.width / 2;
  let top = label.middle ? label.y - info.height / 2 : label.y;
  left = Math.max(0, Math.min(CHART_SIZE.width - info.width, Math.round(left)));
  top = Math.max(0, Math.min(CHART_SIZE.height - info.height, Math.round(top)));
  return { input: data, left, top };
}

/** A short form of a number for labels: up to two decimals, no trailing zeros. */
export function formatValue(v: number): string {
  return String(Number(v.toFixed(2)));
}

/** Axis bounds and ticks with round steps (1, 2, 2.5, 5 × 10^n) covering min..max and 0. */
function axis(values: readonly number[]): { lo: number; hi: number; ticks: number[] } {
  const min = Math.min(0, ...values);
  const max = Math.max(0, ...values);
  const span = max - min || 1;
  const raw = span / 5;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * mag >= raw) ?? 10) * mag;
  const lo = Math.floor(min / step) * step;
  const hi = Math.ceil(max / step) * step;
  const ticks: number[] = [];
  for (let v = lo; v <= hi + step / 2; v += step) ticks.push(Number(v.toPrecision(12)));
  return { lo, hi: hi === lo ? lo + step : hi, ticks };
}

function legend(
  spec: FigureSpec,
  names: string[],
  colors: string[],
  y: number,
): { svg: string; labels: Label[] } {
  let svg = '';
  const labels: Label[] = [];
  const slot = Math.min(260, (CHART_SIZE.width - 200) / names.length);
  const start = CHART_SIZE.width / 2 - (slot * names.length) / 2;
  names.forEach((name, i) => {
    const x = start + i * slot;
    svg += `<rect x="${x}" y="${y - 10}" width="28" height="20" fill="${colors[i % colors.length]}"/>`;
    labels.push({ text: name || spec.caption, x: x + 36, y, size: 24, align: 'left', middle: true });
  });
  return { svg, labels };
}

/** The bar or line chart's SVG and labels. */
function cartesian(spec: FigureSpec): { svg: string; labels: Label[] } {
  const { width, height } = CHART_SIZE;
  const plot = { left: 130, right: width - 50, top: 100, bottom: height - 110 };
  const { lo, hi, ticks } = axis(spec.series.flatMap((s) => s.values));
  const yOf = (v: number) => plot.bottom - ((v - lo) / (hi - lo)) * (plot.bottom - plot.top);
  const slot = (plot.right - plot.left) / spec.labels.length;
  const labels: Label[] = [];
  let svg = '';
  for (const t of ticks) {
    const y = yOf(t);
    svg += `<line x1="${plot.left}" y1="${y}" x2="${plot.right}" y2="${y}" stroke="#D9D9D9" stroke-width="2"/>`;
    labels.push({ text: formatValue(t), x: plot.left - 14, y, size: 26, align: 'right', middle: true });
  }
  svg += `<line x1="${plot.left}" y1="${yOf(0)}" x2="${plot.right}" y2="${yOf(0)}" stroke="#595959" stroke-width="3"/>`;
  svg += `<line x1="${plot.left}" y1="${plot.top}" x2="${plot.left}" y2="${plot.bottom}" stroke="#595959" stroke-width="3"/>`;
  if (spec.unit)
    labels.push({ text: `单位：${spec.unit}`, x: plot.left - 100, y: 40, size: 26, align: 'left' });
  spec.labels.forEach((name, i) => {
    labels.push({
      text: name,
      x: plot.left + slot * (i + 0.5),
      y: plot.bottom + 14,
      size: 26,
      width: slot - 8,
    });
  });
  const n = spec.series.length;
  spec.series.forEach((series, si) => {
    const color = COLORS[si % COLORS.length]!;
    if (spec.type === 'bar') {
      const group = slot * 0.7;
      const bar = group / n;
      series.values.forEach((v, i) => {
        const x = plot.left + slot * i + (slot - group) / 2 + bar * si;
        const y = Math.min(yOf(v), yOf(0));
        const h = Math.max(1, Math.abs(yOf(v) - yOf(0)));
        svg += `<rect x="${x}" y="${y}" width="${bar - 4}" height="${h}" fill="${color}"/>`;
        labels.push({
          text: formatValue(v),
          x: x + (bar - 4) / 2,
          y: (v >= 0 ? y : y + h) - (v >= 0 ? 36 : -4),
          size: 24,
        });
      });
    } else {
      const points = series.values.map((v, i) => [plot.left + slot * (i + 0.5), yOf(v)] as const);
      svg += `<polyline points="${points.map((p) => p.join(',')).join(' ')}" fill="none" stroke="${color}" stroke-width="5"/>`;
      points.forEach(([x, y], i) => {
        svg += `<circle cx="${x}" cy="${y}" r="8" fill="${color}"/>`;
        labels.push({ text: formatValue(series.values[i]!), x, y: y - 44, size: 24 });
      });
    }
  });
  if (n > 1) {
    const l = legend(
      spec,
      spec.series.map((s) => s.name),
      COLORS,
      70,
    );
    svg += l.svg;
    labels.push(...l.labels);
  }
  return { svg, labels };
}

/** The pie chart's SVG and labels (each part's label, value and share in the legend). */
function pie(spec: FigureSpec): { svg: string; labels: Label[] } {
  const values = spec.series[0]!.values;
  const total = values.reduce((a, b) => a + b, 0) || 1;
  const cx = 380;
  const cy = CHART_SIZE.height / 2 + 20;
  const r = 260;
  let svg = '';
  const labels: Label[] = [];
  let angle = -Math.PI / 2;
  values.forEach((v, i) => {
    const color = COLORS_PIE[i % COLORS_PIE.length]!;
    const sweep = (v / total) * Math.PI * 2;
    if (sweep >= Math.PI * 2 - 1e-9) svg += `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${color}"/>`;
    else if (sweep > 0) {
      const [x1, y1] = [cx + r * Math.cos(angle), cy + r * Math.sin(angle)];
      const [x2, y2] = [cx + r * Math.cos(angle + sweep), cy + r * Math.sin(angle + sweep)];
      svg += `<path d="M${cx},${cy} L${x1},${y1} A${r},${r} 0 ${sweep > Math.PI ? 1 : 0} 1 ${x2},${y2} Z" fill="${color}" stroke="#FFFFFF" stroke-width="3"/>`;
    }
    angle += sweep;
    const y = 120 + i * Math.min(48, 520 / values.length);
    svg += `<rect x="720" y="${y - 12}" width="28" height="24" fill="${color}"/>`;
    labels.push({
      // The share beside the value, unless the values are already percentages.
      text: `${spec.labels[i]}：${formatValue(v)}${spec.unit}${spec.unit === '%' ? '' : `（${formatValue((v / total) * 100)}%）`}`,
      x: 760,
      y,
      size: 24,
      align: 'left',
      middle: true,
    });
  });
  return { svg, labels };
}

/** The chart as a PNG of CHART_SIZE; `note` (the sandbox's 沙箱示例数据) is written in its corner. */
export async function renderChartPng(spec: FigureSpec, options: { note?: string } = {}): Promise<Buffer> {
  const { width, height } = CHART_SIZE;
  const drawn = spec.type === 'pie' ? pie(spec) : cartesian(spec);
  if (options.note)
    drawn.labels.push({
      text: options.note,
      x: width - 20,
      y: 16,
      size: 24,
      color: '#C00000',
      align: 'right',
    });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" fill="#FFFFFF"/>${drawn.svg}</svg>`;
  const overlays = await Promise.all(drawn.labels.map(renderLabel));
  return sharp(Buffer.from(svg)).composite(overlays).png({ compressionLevel: 9 }).toBuffer();
}
