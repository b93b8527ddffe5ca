import {
  checkOutput,
  type LlmMessage,
  type LlmProvider,
  type LlmUsage,
  maxTokensForChars,
  type OutputExpectations,
  type OutputViolation,
  retryChecked,
  runChecked,
  violationsText,
} from '../../providers/llm/index.ts';
import type { Source } from './references.ts';
import { citationFindings, cleanCitations, NO_REMOVALS, type RemovedCounts } from './writing.citations.ts';
import { TEXTS } from './writing.texts.ts';

/**
 * Every text of AI writing passes through here before it reaches a user, a stored draft or a file:
 * the shared output checks of providers/llm (refusal, preamble/afterword, wrong language, prompt
 * echo, obeyed injection, empty, too long, cut off; `runChecked` / `retryChecked`) and, for text
 * that may cite, citations by construction (writing.citations.ts). A failed check regenerates —
 * at most the provider's LLM_OUTPUT_ATTEMPTS answers — and what still fails is not delivered.
 */

/** A writing text that failed every answer's checks: not delivered (and, in a paid job, not charged). */
export class WritingRejected extends Error {
  override readonly name = 'WritingRejected';
  readonly violations: OutputViolation[];
  constructor(violations: OutputViolation[]) {
    super(`writing output rejected: ${violationsText(violations)}`);
    this.violations = violations;
  }
}

/** The language rule of a writing's text: Chinese unless the paper is in English. */
function languageOf(language: 'zh' | 'en'): OutputExpectations['language'] {
  return language === 'en' ? 'any' : 'zh';
}

/**
 * A section ends like finished text: its last line ends a sentence, or is a table row, a formula
 * or the close of a code block. A cut-off answer whose endpoint said `stop` is caught here.
 */
export function endsComplete(text: string): boolean {
  const last = text.trimEnd().split('\n').at(-1)?.trim() ?? '';
  return (
    /[。！？!?…；;.」』”"’）)】\]]$/.test(last) ||
    /^\|.*\|$/.test(last) ||
    /\$\$$/.test(last) ||
    last === '```'
  );
}

export interface CheckedSectionRequest {
  llm: LlmProvider;
  task: 'writing.section' | 'writing.revise';
  messages: LlmMessage[];
  /** The words asked for: sets max_tokens and the length the answer must keep to. */
  wordCount: number;
  language: 'zh' | 'en';
  sources: readonly Source[];
  userId: string;
  orderNo: string | null;
  signal?: AbortSignal;
  onText?: (textSoFar: string) => void;
}

export type CheckedSection = (
  | { ok: true; text: string; removed: RemovedCounts }
  | { ok: false; violations: OutputViolation[] }
) & {
  attempts: number;
  /** Tokens and cost of every answer asked for, rejected ones included. */
  usage: LlmUsage;
};

/**
 * A section (or a revised section) that passed every check: hygiene, complete, within length,
 * and its citations cleaned by construction. A reference section of the model's own regenerates;
 * the last answer has it dropped with every mark instead. `ok: false`: no answer passed.
 */
export async function writeCheckedSection(req: CheckedSectionRequest): Promise<CheckedSection> {
  const attempts = req.llm.outputAttempts ?? 3;
  const cleaned = new Map<number, { text: string; removed: RemovedCounts }>();
  const numbers = new Set(req.sources.map((s) => s.n));
  const result = await runChecked(req.llm, {
    task: req.task,
    userId: req.userId,
    orderNo: req.orderNo,
    messages: req.messages,
    maxTokens: maxTokensForChars(Math.round(req.wordCount * 1.6) + 200),
    attempts,
    ...(req.signal ? { signal: req.signal } : {}),
    ...(req.onText ? { onText: req.onText } : {}),
    expect: {
      language: languageOf(req.language),
      minChars: Math.min(80, Math.round(req.wordCount * 0.3)),
      maxChars: Math.round(req.wordCount * 2.5) + 400,
    },
    verify: (text, attempt) => {
      const violations: OutputViolation[] = [];
      if (!endsComplete(text)) violations.push({ rule: 'truncated', message: TEXTS.checkCutOff });
      const clean = cleanCitations(text, {
        sources: req.sources,
        language: req.language,
        lastAttempt: attempt >= attempts,
      });
      if (clean.regenerate)
        violations.push({ rule: 'invented_references', message: TEXTS.checkOwnReferenceList });
      else {
        const left = citationFindings(clean.text, { numbers, sources: req.sources });
        if (left.length > 0)
          violations.push({
            rule: 'invented_citation',
            message: TEXTS.checkUnresolvedCitations(left.map((f) => f.match)),
          });
      }
      if (violations.length === 0) cleaned.set(attempt, { text: clean.text, removed: clean.removed });
      return violations;
    },
  });
  if (!result.ok)
    return { ok: false, violations: result.violations, attempts: result.attempts, usage: result.usage };
  const accepted = cleaned.get(result.attempts) ?? { text: result.text, removed: { ...NO_REMOVALS } };
  return { ok: true, ...accepted, attempts: result.attempts, usage: result.usage };
}

/**
 * The strings of a structured answer (titles and reasons, outline names, the abstract) checked like
 * any text: each must pass the shared checks (the English abstract in any language). Returns the
 * violations of the first string that fails, or none.
 */
export function checkStrings(
  strings: readonly { text: string; language: 'zh' | 'en' | 'any'; maxChars?: number }[],
  messages: LlmMessage[],
): OutputViolation[] {
  for (const s of strings) {
    const checked = checkOutput(s.text, messages, {
      language: s.language === 'zh' ? 'zh' : 'any',
      ...(s.maxChars ? { maxChars: s.maxChars } : {}),
    });
    if (!checked.ok) return checked.violations;
    // A preamble inside a short field is the field's content, not something to strip quietly.
    if (checked.stripped.length > 0) return [{ rule: 'preamble', message: TEXTS.checkPreambleInField }];
  }
  return [];
}

/**
 * A structured writing answer (titles, outline, abstract) asked for until its strings pass
 * `checkStrings` (with `strings`) — at most the provider's LLM_OUTPUT_ATTEMPTS answers.
 * @throws WritingRejected when none passed; the provider's LlmError when it could not answer
 */
export async function checkedStructured<T>(
  llm: LlmProvider,
  ask: () => Promise<T>,
  strings: (value: T) => { text: string; language: 'zh' | 'en' | 'any'; maxChars?: number }[],
  messages: LlmMessage[],
): Promise<T> {
  const outcome = await retryChecked<T>({
    attempts: llm.outputAttempts ?? 3,
    messages,
    generate: () => ask(),
    check: (value) => {
      const violations = checkStrings(strings(value), messages);
      return violations.length > 0 ? { ok: false, violations } : { ok: true, value };
    },
  });
  if (!outcome.ok) throw new WritingRejected(outcome.violations);
  return outcome.value;
}
