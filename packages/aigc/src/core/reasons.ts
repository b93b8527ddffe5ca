/** The Chinese wording of every reason and verdict the detector gives (one place for its texts). */
import type { ReasonCode } from './features.ts';

export const REASON_LABELS: Readonly<Record<ReasonCode, string>> = {
  uniform_sentences: '句式高度均匀，句长和分句长度变化小',
  dense_connectives: '模板化连接词密集（首先、其次、此外、综上所述等）',
  template_phrases: '套话和模板化表达较多（值得注意的是、至关重要、有助于等）',
  hedging: '模糊限定词多（可能、通常、一般）',
  impersonal: '缺少个人化、口语化的表达',
  enumeration: '条目化罗列结构明显',
  low_diversity: '用词重复、变化少',
  ngram: '字词搭配接近AI生成文本的常见用法',
  template_frame: '开头或结尾套用模板化表述（在当今社会……的背景下、综上所述、总而言之等）',
};

export const VERDICT_TEXTS = {
  /** Below the threshold or too short: no figure is presented as meaningful. */
  none: '未见明显AI生成特征',
  likely: '疑似含有AI生成内容',
  /** The document's index is below the threshold but some paragraphs are flagged: the figure is shown. */
  partial: '部分段落疑似含有AI生成内容',
  tooShort: '文字过短，无法给出可靠判断',
  /** Every figure is labelled as a reference value. */
  referenceLabel: 'AIGC指数（参考值）',
  disclaimer:
    'AIGC指数由统计模型估计，仅供参考，不能作为认定文本由AI生成的证据；阈值按人工撰写文本误报率不超过1%选定。',
} as const;
