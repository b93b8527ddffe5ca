import type { ReductionKind } from '@kyfw/db';
import type { LlmMessage } from '../../providers/llm/index.ts';
import { factsOf } from './reduction.facts.ts';

export const REWRITE_TASK = 'reduction.rewrite';
export const ORIGINAL_OPEN = '【原文开始】';
export const ORIGINAL_CLOSE = '【原文结束】';

const GOALS: Record<ReductionKind, string> = {
  reduction: '降低与已发表文献的文字重复：换用同义表达、调整句式与语序、拆分或合并句子，不能只替换个别词语。',
  aigc_reduction:
    '降低机器生成痕迹：减少“首先、其次、此外、综上所述”等模板化连接词，句子长短错落，表达具体自然，像作者本人的写作。',
};

/**
 * The messages for rewriting one paragraph. The facts the code will check are listed so the model
 * knows what must stay character for character; `retryNote` says what the previous attempt lost.
 */
export function rewriteMessages(kind: ReductionKind, paragraph: string, retryNote?: string): LlmMessage[] {
  const facts = [...new Set(factsOf(paragraph).map((f) => f.text))];
  const system = [
    '你是学术论文修改助手，把给出的中文段落改写成意思完全相同的新段落。',
    `改写目标：${GOALS[kind]}`,
    '必须逐字保留：术语、数字与单位、引用标注（如[1]、(张三, 2020)）、公式、引号中的原话、书名号中的标题。',
    '不得增加原文没有的事实、数据或引用，不得删去论点。只输出改写后的段落正文，不要解释。',
  ].join('\n');
  const user = [
    facts.length > 0 ? `必须原样保留的内容：${facts.join(' | ')}` : '本段没有必须原样保留的数字或引用。',
    retryNote ? `上一次改写丢失了：${retryNote}，请重新改写并保留它们。` : '',
    ORIGINAL_OPEN,
    paragraph,
    ORIGINAL_CLOSE,
  ]
    .filter(Boolean)
    .join('\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

/** The paragraph a rewrite prompt carries (the sandbox reads it back). */
export function paragraphOfPrompt(user: string): string | undefined {
  const open = user.indexOf(ORIGINAL_OPEN);
  const close = user.lastIndexOf(ORIGINAL_CLOSE);
  if (open < 0 || close < open) return undefined;
  return user.slice(open + ORIGINAL_OPEN.length, close).trim();
}

export function kindOfPrompt(system: string): ReductionKind {
  return system.includes('机器生成痕迹') ? 'aigc_reduction' : 'reduction';
}
