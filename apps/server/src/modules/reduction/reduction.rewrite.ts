/**
 * One paragraph through the LLM, checked by code before anything is kept: the provider's output
 * checks (empty, refusal, wrong language, prompt echo, obeyed injection, preamble/afterword,
 * not a rewrite, cut off) and this module's fact rules (reduction.facts.ts), regenerated a bounded
 * number of times; when no answer passes, the paragraph stays as it was with the rules the last
 * answer broke. And what the order is charged for: only the target paragraphs rewritten.
 */
import type { ReductionKind } from '@kyfw/db';
import { countChars } from '@kyfw/simcheck';
import { type LlmProvider, maxTokensForChars, runChecked, SANDBOX_MARK } from '../../providers/llm/index.ts';
import { checkRewrite } from './reduction.facts.ts';
import { REWRITE_TASK, rewriteMessages } from './reduction.prompts.ts';
import type { ReductionParagraph, RewriteResult } from './reduction.repo.ts';
import { FACT_RULE_TEXTS } from './reduction.texts.ts';

/** Answers asked for one paragraph (the first and its regenerations) before it is kept as it was. */
export const ATTEMPTS_PER_PARAGRAPH = 3;

export interface Problem {
  rule: string;
  message: string;
}

/** The fact rules a rewrite breaks, as problems (the sandbox mark is not part of the text). */
export function factProblems(original: string, rewrite: string): Problem[] {
  return checkRewrite(original.trim(), rewrite.replace(SANDBOX_MARK, '').trim()).map((v) => ({
    rule: v.rule,
    message: `${FACT_RULE_TEXTS[v.rule]}（${v.detail}）`,
  }));
}

export type ParagraphOutcome =
  | { ok: true; text: string; attempts: number }
  | { ok: false; problems: Problem[]; attempts: number };

/**
 * Rewrites one paragraph through the provider's checked loop (runChecked): each answer must pass
 * the shared output checks (a rewrite of the paragraph, in Chinese, no refusal, preamble, echo of
 * the prompt, obeyed instruction, nothing cut off) and the fact rules; at most
 * ATTEMPTS_PER_PARAGRAPH answers, each regeneration told what the last one broke.
 * @throws LlmError when the endpoint cannot be reached (the job retries, then refunds)
 */
export async function rewriteParagraph(
  llm: LlmProvider,
  input: {
    kind: ReductionKind;
    paragraph: string;
    title?: string;
    userId?: string;
    orderNo?: string | null;
    signal?: AbortSignal;
  },
): Promise<ParagraphOutcome> {
  const paragraph = input.paragraph.trim();
  const out = await runChecked(llm, {
    task: REWRITE_TASK,
    userId: input.userId,
    orderNo: input.orderNo ?? null,
    messages: rewriteMessages(input.kind, paragraph, input.title),
    // Room for twice the paragraph (the length rule refuses more anyway).
    maxTokens: maxTokensForChars(paragraph.length * 2),
    signal: input.signal,
    attempts: ATTEMPTS_PER_PARAGRAPH,
    expect: {
      language: 'zh',
      rewriteOf: paragraph,
      maxChars: paragraph.length * 2 + SANDBOX_MARK.length + 20,
      complete: /[。！？!?；;…”’」』）)】\]]$/u.test(paragraph),
    },
    verify: (text) => factProblems(paragraph, text),
  });
  if (out.ok) return { ok: true, text: out.text.replace(/\s*\n+\s*/g, ''), attempts: out.attempts };
  return {
    ok: false,
    problems: out.violations.map((v) => ({ rule: v.rule, message: v.message })),
    attempts: out.attempts,
  };
}

/**
 * What to give back when the job ends: the share of the price that pays for the target paragraphs
 * not rewritten, by their characters (the price is per character; what is charged is rounded down
 * to the fen); none rewritten: all of it.
 */
export function refundFenOf(
  amountFen: number,
  paragraphs: readonly ReductionParagraph[],
  results: readonly RewriteResult[],
): number {
  const targets = paragraphs.filter((p) => p.target);
  const byIndex = new Map(results.map((x) => [x.index, x]));
  const total = targets.reduce((s, p) => s + countChars(p.text), 0);
  const delivered = targets
    .filter((p) => byIndex.get(p.index)?.outcome === 'rewritten')
    .reduce((s, p) => s + countChars(p.text), 0);
  if (delivered === 0 || total === 0) return amountFen;
  return amountFen - Math.floor((amountFen * delivered) / total);
}
