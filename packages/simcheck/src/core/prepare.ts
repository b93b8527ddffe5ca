/**
 * One-time start-up work of a checker process, done ahead of its first check: the traditional ->
 * simplified table (built from OpenCC's dictionaries), the word segmenter with its dictionary (ICU
 * loads it on first use), and a few warm-up checks of a made-up thesis against a small in-memory
 * library, so that the JavaScript engine has compiled the hot paths. A long-lived checker (the
 * service's worker threads) calls this when it starts: without it the first students' checks after
 * a start take several times as long as the later ones.
 */
import { checkText } from './check.ts';
import { getIndexFingerprints } from './document.ts';
import { normalizeText } from './normalize.ts';
import { type Options, resolveOptions } from './options.ts';
import { loadSegmenter } from './segment.ts';
import type { Index, LookupOptions, Postings, StoredDocument } from './types.ts';

/** Sentences written for the warm-up (thesis-like, on several topics). */
const SENTENCES = [
  '本研究以城市社区养老服务为对象，采用问卷调查与深度访谈相结合的方法收集资料。',
  '结果表明，服务供给的可及性与老年人的满意度之间存在显著的正相关关系。',
  '近年来，新能源汽车产业在政策扶持下快速成长，但核心零部件的自主研发能力仍显不足。',
  '本文构建了包含技术创新、市场需求和政策环境三个维度的评价指标体系。',
  '实验采用随机对照设计，将受试者分为干预组和对照组，干预周期为十二周。',
  '统计分析显示，两组在主要结局指标上的差异具有统计学意义。',
  '乡村振兴战略的实施为农村基层治理带来了新的机遇，也提出了更高的要求。',
  '从数据来源看，本文使用的样本覆盖了东部、中部和西部的二十个省份。',
  '深度学习模型在图像识别任务中表现优异，但其可解释性问题仍然受到广泛关注。',
  '为检验结论的稳健性，本文进一步替换了核心解释变量并更换了估计方法。',
  '课堂观察发现，小组合作学习能够有效激发学生的学习兴趣和参与意识。',
  '该地区地下水位持续下降，已经对农业灌溉和居民生活用水造成了不利影响。',
  '研究结论可为相关部门制定差异化的扶持政策提供参考。',
  '文章最后讨论了研究的局限性，并对未来的研究方向进行了展望。',
];

/** A few word swaps, as students disguise a copied sentence. */
const SWAPS: [string, string][] = [
  ['研究', '探究'],
  ['显著', '明显'],
  ['构建', '建立'],
  ['有效', '切实'],
  ['提供参考', '提供借鉴'],
];

/** The postings of an in-memory library, sorted by hash, then docNo, then position. */
class WarmIndex implements Index {
  readonly backend = 'local' as const;
  readonly params;
  private readonly docs: StoredDocument[] = [];
  private readonly rows: [number, number, number][] = [];

  constructor(params: { k: number; minRun: number }, texts: string[]) {
    this.params = params;
    texts.forEach((text, i) => {
      const docNo = i + 1;
      this.docs.push({ docNo, id: `warm-${docNo}`, title: null, text });
      const fp = getIndexFingerprints(text, params);
      for (let x = 0; x < fp.hashes.length; x++) this.rows.push([fp.hashes[x]!, docNo, fp.positions[x]!]);
    });
    this.rows.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  }

  async addDocuments(): Promise<never> {
    throw new Error('the warm-up index is read-only');
  }

  async removeDocument(): Promise<boolean> {
    return false;
  }

  async stats(): Promise<never> {
    throw new Error('the warm-up index has no statistics');
  }

  async lookup(hashes: Uint32Array, options: LookupOptions = {}): Promise<Postings> {
    const wanted = new Set(hashes);
    const counts = new Map<number, number>();
    for (const [h] of this.rows) if (wanted.has(h)) counts.set(h, (counts.get(h) ?? 0) + 1);
    const max = options.maxPostings ?? Number.POSITIVE_INFINITY;
    const only = options.docNos ? new Set(options.docNos) : undefined;
    const kept = this.rows.filter(
      ([h, d]) => wanted.has(h) && counts.get(h)! <= max && (!only || only.has(d)),
    );
    const frequent = [...counts].filter(([, n]) => n > max).map(([h]) => h);
    return {
      hashes: Uint32Array.from(kept, (r) => r[0]),
      docNos: Uint32Array.from(kept, (r) => r[1]),
      positions: Uint32Array.from(kept, (r) => r[2]),
      ...(options.maxPostings !== undefined ? { frequent: Uint32Array.from(frequent).sort() } : {}),
    };
  }

  async getDocuments(docNos: readonly number[]): Promise<StoredDocument[]> {
    return docNos.flatMap((d) => this.docs[d - 1] ?? []);
  }

  async close(): Promise<void> {}
}

/** The made-up library and thesis: copies, a reordered and a reworded passage, and own text. */
function warmUpTexts(): { library: string[]; thesis: string } {
  const n = SENTENCES.length;
  const library: string[] = [];
  for (let d = 0; d < 24; d++) {
    const parts: string[] = [];
    for (let s = 0; s < 6; s++) parts.push(SENTENCES[(d * 5 + s * 3) % n]!);
    library.push(parts.join(''));
  }
  const chapters: string[] = [];
  for (let c = 0; c < 8; c++) {
    const copied = library[(c * 7) % library.length]!;
    const reordered = library[(c * 7 + 3) % library.length]!.split(/(?<=。)/)
      .reverse()
      .join('');
    let reworded = library[(c * 7 + 5) % library.length]!;
    for (const [from, to] of SWAPS) reworded = reworded.replaceAll(from, to);
    const own = `第${c + 1}章 研究设计\n本章的分析基于笔者在第${c + 1}阶段整理的资料，共计${c * 13 + 40}份记录。`;
    chapters.push(`${own}\n${copied}\n${reordered}\n“${SENTENCES[c % n]}”[${c + 1}]\n${reworded}`);
  }
  return { library, thesis: `${chapters.join('\n')}\n参考文献\n[1] 张三. 研究方法[J]. 学报, 2020.` };
}

export async function prepareEngine(options: Partial<Options> = {}): Promise<void> {
  const opts = resolveOptions(options);
  normalizeText('繁體，準備。');
  if (opts.paraphrase) (await loadSegmenter(opts.segmenter))('预先加载分词词典。');
  const { library, thesis } = warmUpTexts();
  const index = new WarmIndex({ k: opts.k, minRun: opts.minRun }, library);
  for (let i = 0; i < 6; i++) await checkText(index, thesis, options);
}
