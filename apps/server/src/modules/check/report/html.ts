import { createHash } from 'node:crypto';
import type { ReportMatch, ReportModel } from '@kyfw/contracts';
import { AIGC_CSS, aigcSectionHtml } from './aigc-html.ts';
import { COLORS } from './pdf.ts';
import { formatChinaTime, KIND_LABELS, REPORT_DISCLAIMER } from './report-model.ts';
import {
  comparisonRows,
  figureCells,
  SECTION_COLUMNS,
  SOURCE_COLUMNS,
  sectionRows,
  sourceRows,
} from './report-tables.ts';

/**
 * The standalone HTML report: one self-contained file (inline CSS, a few lines of inline script,
 * no external requests) with the figures, the chapter table, the source list and the marked full
 * text; clicking a marked passage shows the source passage beside it; 全文对照 prints every marked
 * passage beside its source passage, with the source's metadata.
 */

function comparison(model: ReportModel): string {
  const rows = comparisonRows(model);
  if (rows.length === 0) return '<p class="ctx">未发现相似片段。</p>';
  return `<table class="cmp"><tr><th>原文内容</th><th>相似来源内容</th></tr>
${rows
  .map(
    (r) =>
      `<tr><td colspan="2" class="cap k-${r.kind}">片段 ${r.no}　${escapeHtml(r.caption)}</td></tr><tr><td class="k-${r.kind}">${escapeHtml(r.original)}</td><td><b>${escapeHtml(r.sourceTitle)}</b>${r.sourceDetails ? `<br><span class="ctx">${escapeHtml(r.sourceDetails)}</span>` : ''}<br>${escapeHtml(r.sourceText) || '<span class="ctx">（来源原文已不可用）</span>'}</td></tr>`,
  )
  .join('\n')}</table>`;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** JSON safe inside <script>: no "</script>", no U+2028/2029 surprises. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function markedText(model: ReportModel): string {
  const text = model.text;
  const matches: ReportMatch[] = [...model.matches].sort((a, b) => a.start - b.start);
  const parts: string[] = [];
  let pos = 0;
  for (const m of matches) {
    if (m.start < pos) continue;
    parts.push(escapeHtml(text.slice(pos, m.start)));
    parts.push(
      `<mark class="k-${m.kind}" data-i="${m.index}" title="${escapeHtml(KIND_LABELS[m.kind])} · 来源 [${m.sourceNo}]">${escapeHtml(
        text.slice(m.start, m.end),
      )}<sup>[${m.sourceNo}]</sup></mark>`,
    );
    pos = m.end;
  }
  parts.push(escapeHtml(text.slice(pos)));
  return parts.join('');
}

const CSS = `
*{box-sizing:border-box}body{margin:0;font:14px/1.7 "PingFang SC","Microsoft YaHei","Noto Sans SC","Source Han Sans SC",sans-serif;color:${COLORS.text};background:#f5f6f8}
.page{max-width:1080px;margin:24px auto;background:#fff;padding:32px 40px;box-shadow:0 1px 4px rgba(0,0,0,.08)}
h1{color:${COLORS.brand};font-size:24px;margin:0 0 12px}h2{font-size:17px;border-left:4px solid ${COLORS.brand};padding-left:8px;margin:28px 0 12px}
.meta{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:2px 24px}.meta b{font-weight:600}
.figs{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:8px}.fig{border:1px solid ${COLORS.line};padding:8px 12px}
.fig span{display:block;color:${COLORS.muted};font-size:12px}.fig strong{font-size:20px}
table{width:100%;border-collapse:collapse;font-size:13px}th,td{border-bottom:1px solid ${COLORS.line};padding:6px;text-align:left;vertical-align:top}th{background:#fafafa}
td.n{text-align:right;white-space:nowrap}.bar{background:${COLORS.barBack};height:8px;min-width:80px}.bar i{display:block;height:8px;background:${COLORS.verbatim}}
.legend span{margin-right:16px}.legend i{display:inline-block;width:10px;height:10px;margin-right:4px;vertical-align:middle}
.body{display:flex;gap:16px;align-items:flex-start}.text{flex:1;white-space:pre-wrap;word-break:break-all}
.side{width:340px;position:sticky;top:12px;border:1px solid ${COLORS.line};padding:12px;font-size:13px;max-height:90vh;overflow:auto}
mark{background:none;cursor:pointer}mark sup{font-size:10px;color:${COLORS.brand}}
.k-verbatim{color:${COLORS.verbatim}}.k-paraphrase{color:${COLORS.paraphrase}}.k-quoted{color:${COLORS.quoted}}
mark.active{outline:2px solid ${COLORS.brand}}.ctx{color:${COLORS.muted}}
.note{color:${COLORS.muted};font-size:12px;margin-top:24px}
.cmp td{width:50%;white-space:pre-wrap;word-break:break-all}.cmp td.cap{font-weight:600;border-bottom:none;padding-top:14px}
${AIGC_CSS}
@media print{body{background:#fff}.page{box-shadow:none;margin:0;max-width:none}.side{display:none}}
@media (max-width:800px){.body{display:block}.side{position:static;width:auto;margin-top:12px}.figs{grid-template-columns:repeat(2,1fr)}}
`;

const SCRIPT = `
(function(){var d=JSON.parse(document.getElementById('kyfw-data').textContent);var side=document.getElementById('side');var active;
function esc(s){return s.replace(/[&<>"']/g,function(c){return {'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'}[c]})}
document.querySelector('.text').addEventListener('click',function(e){var m=e.target.closest('mark');if(!m)return;var x=d.matches[+m.dataset.i];if(!x)return;
if(active)active.classList.remove('active');active=m;m.classList.add('active');var s=d.sources[x.sourceNo-1]||{title:'未知来源'};
side.innerHTML='<b>'+esc(d.kinds[x.kind])+'</b>（'+x.chars+' 字）<p><b>原文</b><br>'+esc(m.firstChild.textContent)+'</p><p><b>来源 ['+x.sourceNo+']</b> '+esc(s.title)+'<br><span class="ctx">…'+esc(x.sourcePassage.before)+'</span>'+esc(x.sourcePassage.text)+'<span class="ctx">'+esc(x.sourcePassage.after)+'…</span></p>';});})();
`;

/**
 * The Content-Security-Policy the HTML report is downloaded with (issue 22), as strict as the other
 * downloads allow: nothing loaded from anywhere, only the report's own inline script (by its hash)
 * and its inline styles, no forms, no framing.
 */
export const REPORT_HTML_POLICY = [
  "default-src 'none'",
  `script-src 'sha256-${createHash('sha256').update(SCRIPT, 'utf8').digest('base64')}'`,
  "style-src 'unsafe-inline'",
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function renderHtml(model: ReportModel): string {
  const f = model.figures;
  const figures = figureCells(f);
  const meta: [string, string][] = [
    ['报告编号', model.reportNo],
    ['检测时间', formatChinaTime(model.checkedAt)],
    ['篇名', model.title],
    ['作者', model.author],
    ['检测类型', model.goodsName],
    ['验证码', model.verificationCode],
  ];
  // The marked text is in the page already; the data carries only what a click shows besides it.
  const data = {
    matches: model.matches.map((m) => ({
      kind: m.kind,
      chars: m.chars,
      sourceNo: m.sourceNo,
      sourcePassage: m.sourcePassage,
    })),
    sources: model.sources.map((s) => ({ title: s.title })),
    kinds: KIND_LABELS,
  };
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(model.title)} — 论文相似性检测报告 ${escapeHtml(model.reportNo)}</title><style>${CSS}</style></head>
<body><div class="page">
<h1>论文相似性检测报告</h1>
<div class="meta">${meta.map(([k, v]) => `<div><b>${k}：</b>${escapeHtml(v)}</div>`).join('')}</div>
<p class="ctx">核验真伪：<a href="${escapeHtml(model.verifyUrl)}">${escapeHtml(model.verifyUrl.split('?')[0]!)}</a>（输入报告编号与验证码）</p>
<h2>检测结果</h2>
<div class="figs">${figures
    .map(
      ({ label, value, tone }) =>
        `<div class="fig"><span>${label}</span><strong${tone ? ` style="color:${COLORS[tone]}"` : ''}>${escapeHtml(value)}</strong></div>`,
    )
    .join('')}</div>
${f.maxSingleSourceTitle ? `<p class="ctx">单篇最大文字复制比来源：${escapeHtml(f.maxSingleSourceTitle)}</p>` : ''}
<h2>各章节检测结果</h2>
<table><tr>${SECTION_COLUMNS.map((c) => `<th>${c}</th>`).join('')}<th></th></tr>
${sectionRows(model)
  .map(
    ({ cells: [no, title, chars, copied, ratio], ratio: bar }) =>
      `<tr><td>${no}</td><td>${escapeHtml(title!)}</td><td class="n">${chars}</td><td class="n">${copied}</td><td class="n">${ratio}</td><td><div class="bar"><i style="width:${Math.min(100, bar * 100).toFixed(1)}%"></i></div></td></tr>`,
  )
  .join('\n')}</table>
<h2>相似文献列表</h2>
${
  model.sources.length === 0
    ? '<p class="ctx">未发现相似文献。</p>'
    : `<table><tr>${SOURCE_COLUMNS.map((c) => `<th>${c}</th>`).join('')}</tr>
${sourceRows(model)
  .map(
    ([no, source, copied, ratio, share]) =>
      `<tr><td>${no}</td><td>${escapeHtml(source!).replace('\n', '<br><span class="ctx">')}${source!.includes('\n') ? '</span>' : ''}</td><td class="n">${copied}</td><td class="n">${ratio}</td><td class="n">${share}</td></tr>`,
  )
  .join('\n')}</table>`
}
<h2>全文检测结果</h2>
<p class="legend"><span><i style="background:${COLORS.verbatim}"></i>${KIND_LABELS.verbatim}</span><span><i style="background:${COLORS.paraphrase}"></i>${KIND_LABELS.paraphrase}</span><span><i style="background:${COLORS.quoted}"></i>${KIND_LABELS.quoted}</span>点击标记的文字查看相似来源原文。</p>
<div class="body"><div class="text">${markedText(model)}</div><aside class="side" id="side">点击左侧标红、标橙或标绿的文字，在此查看对应的来源原文。</aside></div>
<h2>全文对照</h2>
${comparison(model)}
${model.aigc ? aigcSectionHtml(model.aigc, model.text, escapeHtml) : ''}
<p class="note">${escapeHtml(REPORT_DISCLAIMER)}</p>
</div>
<script type="application/json" id="kyfw-data">${scriptJson(data)}</script>
<script>${SCRIPT}</script>
</body></html>
`;
}
