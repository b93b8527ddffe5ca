/**
 * What the LLM sandbox says: deterministic template text, every piece marked 【沙箱示例】, built from
 * what the prompt gives — the topic, the numbered sources (the demo library's records the caller
 * retrieved) and the word budget. It follows a few plain conventions of our prompts, documented in
 * README.md: `题目：…` / `主题：…`, `约N字`, and sources listed as `[n] title`.
 */

import { materialsOf } from './material.ts';

export const SANDBOX_MARK = '【沙箱示例】';

export interface SandboxPrompt {
  task: string;
  system: string;
  user: string;
  /** Every message joined, for hashing. */
  all: string;
}

export interface PromptFacts {
  topic: string;
  targetChars: number | null;
  sources: { n: number; title: string }[];
}

export function factsOf(prompt: SandboxPrompt): PromptFacts {
  // A topic fenced as user material (material('题目', …)) counts as much as a `题目：` line.
  const pieces = materialsOf(prompt.user);
  const fenced = pieces.find((m) => /^(?:论文)?(?:题目|主题|选题)$/.test(m.label));
  const firstLine = (text: string | undefined) => text?.trim().split('\n')[0] ?? '';
  const topic =
    firstLine(fenced?.text).slice(0, 200) ||
    /(?:题目|主题|论文题目|选题)[:：]\s*([^\n]{1,200})/.exec(prompt.user)?.[1]?.trim() ||
    firstLine(pieces[0]?.text ?? prompt.user).slice(0, 60);
  const target = /约\s*(\d{1,6})\s*字/.exec(prompt.user)?.[1];
  const sources: { n: number; title: string }[] = [];
  for (const match of prompt.user.matchAll(/^\[(\d{1,3})\]\s*(.+)$/gm)) {
    sources.push({ n: Number(match[1]), title: match[2]!.trim() });
  }
  return { topic, targetChars: target ? Number(target) : null, sources };
}

/** FNV-1a: the same prompt always gets the same text. */
export function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

const SENTENCES = [
  '围绕“{topic}”，本部分先界定相关概念，再说明研究对象与分析框架。',
  '已有研究从不同角度讨论了这一问题{cite}，为本文提供了基础。',
  '从方法上看，可以结合文献分析与案例比较，对“{topic}”的关键因素进行归纳。',
  '需要说明的是，这里的表述是沙箱模板生成的占位文字，并非模型写作，请替换为自己的论证。',
  '在数据与材料方面，应注明来源、时间范围与样本选择的理由{cite}。',
  '综合上述分析，可以初步得出若干值得进一步检验的判断。',
  '进一步而言，“{topic}”涉及的机制仍有待更细致的实证研究{cite}。',
  '本节的结论将在后续章节中结合具体材料加以展开。',
];

/** Free text of about `targetChars` characters (default 300), opening with the sandbox mark. */
export function sandboxText(prompt: SandboxPrompt): string {
  const facts = factsOf(prompt);
  const target = Math.max(40, Math.min(facts.targetChars ?? 300, 20_000));
  const topic = facts.topic || '本课题';
  let seed = hashOf(prompt.all);
  let out = SANDBOX_MARK;
  let sourceIndex = seed % Math.max(1, facts.sources.length);
  while (out.length < target) {
    const template = SENTENCES[seed % SENTENCES.length]!;
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    let cite = '';
    if (template.includes('{cite}') && facts.sources.length > 0) {
      cite = `[${facts.sources[sourceIndex % facts.sources.length]!.n}]`;
      sourceIndex += 1;
    }
    out += template.replaceAll('{topic}', topic).replaceAll('{cite}', cite);
  }
  return out;
}

interface JsonSchemaNode {
  type?: string | string[];
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  items?: JsonSchemaNode;
  enum?: unknown[];
  const?: unknown;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  description?: string;
  anyOf?: JsonSchemaNode[];
  oneOf?: JsonSchemaNode[];
  default?: unknown;
}

/**
 * A value of the given JSON Schema, for structured-output requests no template knows: strings say
 * what they are (the field's description or name) and carry the sandbox mark, arrays have their
 * minimum length (at least one, at most three items), numbers their minimum.
 */
export function sandboxValue(schema: unknown, prompt: SandboxPrompt, key = 'value', depth = 0): unknown {
  const node = (schema ?? {}) as JsonSchemaNode;
  if (depth > 8) return null;
  if (node.const !== undefined) return node.const;
  if (node.enum && node.enum.length > 0) return node.enum[0];
  const variant = node.anyOf?.[0] ?? node.oneOf?.[0];
  if (variant) return sandboxValue(variant, prompt, key, depth + 1);
  const type = Array.isArray(node.type) ? node.type.find((t) => t !== 'null') : node.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [name, child] of Object.entries(node.properties ?? {})) {
        out[name] = sandboxValue(child, prompt, name, depth + 1);
      }
      return out;
    }
    case 'array': {
      const count = Math.min(Math.max(node.minItems ?? 1, 1, Math.min(3, node.maxItems ?? 3)), 50);
      return Array.from({ length: count }, (_, i) =>
        sandboxValue(node.items, prompt, `${key}${i + 1}`, depth + 1),
      );
    }
    case 'integer':
    case 'number':
      return node.minimum ?? Math.min(1, node.maximum ?? 1);
    case 'boolean':
      return false;
    case 'string': {
      const topic = factsOf(prompt).topic || '本课题';
      let text = `${SANDBOX_MARK}${node.description ?? key}：${topic}`;
      if (node.maxLength !== undefined) text = text.slice(0, node.maxLength);
      while (node.minLength !== undefined && text.length < node.minLength) text += '（示例）';
      return text;
    }
    default:
      return null;
  }
}
