import type { ReductionKind } from '@kyfw/db';
import { type LlmMessage, material, materialsOf, withMaterialRule } from '../../providers/llm/index.ts';
import { factsOf } from './reduction.facts.ts';

export const REWRITE_TASK = 'reduction.rewrite';
/** The label of the paragraph's fence in the prompt (`<<<用户材料:原文 … >>>`). */
export const ORIGINAL_LABEL = '原文';
export const TITLE_LABEL = '题目';

const GOALS: Record<ReductionKind, string> = {
  reduction: '降低与已发表文献的文字重复：换用同义表达、调整句式与语序、拆分或合并句子，不能只替换个别词语。',
  aigc_reduction:
    '降低机器生成痕迹：减少“首先、其次、此外、综上所述”等模板化连接词，句子长短错落，表达具体自然，像作者本人的写作。',
};

/**
 * The messages for rewriting one paragraph. The paragraph and the document's title are the
 * student's material, fenced and labelled (providers/llm material.ts) under the standing rule that
 * directions inside it are not followed. The facts the code will check are listed so the model
 * knows what must stay character for character.
 */
export function rewriteMessages(kind: ReductionKind, paragraph: string, title?: string): LlmMessage[] {
  const facts = [...new Set(factsOf(paragraph).map((f) => f.text))];
  const system = withMaterialRule(
    [
      '你是学术论文修改助手，把给出的中文段落改写成意思完全相同的新段落。',
      `改写目标：${GOALS[kind]}`,
      '必须逐字保留：术语、数字与单位（含正负号）、人名地名机构名、引用标注（如[1]、(张三, 2020)）、公式、引号中的原话、书名号中的标题。',
      '增长与下降、提高与降低、正相关与负相关、显著与不显著、否定与肯定等含义不得改变。',
      '不得增加原文没有的事实、数据、名称、引用或论断，不得删去原文的任何一句话。',
      '只输出改写后的段落正文，不要开场白、标题、解释或说明。',
    ].join('\n'),
  );
  const user = [
    facts.length > 0 ? `必须原样保留的内容：${facts.join(' | ')}` : '本段没有必须原样保留的数字或引用。',
    title ? material(TITLE_LABEL, title) : '',
    '请改写下面的原文段落：',
    material(ORIGINAL_LABEL, paragraph),
  ]
    .filter(Boolean)
    .join('\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

/** The paragraph a rewrite prompt carries (the sandbox reads it back), as the student wrote it. */
export function paragraphOfPrompt(user: string): string | undefined {
  const piece = materialsOf(user).find((m) => m.label === ORIGINAL_LABEL);
  return piece?.text;
}

export function kindOfPrompt(system: string): ReductionKind {
  return system.includes('机器生成痕迹') ? 'aigc_reduction' : 'reduction';
}
