/**
 * What every call sends when its caller does not say otherwise: `max_tokens` and a temperature
 * suited to the task, and the number of characters the adapter accepts before it stops reading.
 * Keyed by the `task` strings of the feature modules (grep `task:` in modules/writing and
 * modules/reduction); a task not listed gets DEFAULT_TASK_LIMITS.
 */
export interface LlmTaskLimits {
  /** Sent as `max_tokens` (clamped to LLM_MAX_OUTPUT_TOKENS). */
  maxTokens: number;
  /** Sent as `temperature`. */
  temperature: number;
}

export const DEFAULT_TASK_LIMITS: LlmTaskLimits = { maxTokens: 4096, temperature: 0.5 };

export const LLM_TASK_LIMITS: Readonly<Record<string, LlmTaskLimits>> = {
  // Short lists of ideas: some variety is wanted.
  'writing.title': { maxTokens: 1024, temperature: 0.8 },
  'writing.outline': { maxTokens: 4096, temperature: 0.5 },
  'writing.abstract': { maxTokens: 2048, temperature: 0.5 },
  // One section of a full text (its caller may pass maxTokensForChars(wordCount)).
  'writing.section': { maxTokens: 8192, temperature: 0.6 },
  'writing.revise': { maxTokens: 8192, temperature: 0.5 },
  // Numbers read back from a text into a chart: no invention wanted.
  'writing.figure': { maxTokens: 2048, temperature: 0.1 },
  // One paragraph rewritten: facts must survive, so not too inventive.
  'reduction.rewrite': { maxTokens: 4096, temperature: 0.4 },
};

/** The limits of a task: the table's entry, or DEFAULT_TASK_LIMITS. */
export function taskLimitsOf(task: string): LlmTaskLimits {
  return LLM_TASK_LIMITS[task] ?? DEFAULT_TASK_LIMITS;
}

/**
 * A `max_tokens` with room for about `chars` characters of Chinese (about one token per character
 * on the tokenizers of DeepSeek and Qwen, fewer on others) plus 25 % and a little slack.
 */
export function maxTokensForChars(chars: number): number {
  return Math.ceil(Math.max(0, chars) * 1.25) + 256;
}

/**
 * The characters the adapter accepts for a call with this `max_tokens`: four per token (what no
 * tokenizer exceeds for ordinary text), at least 2,000. A longer answer is cut there and reported
 * as truncated (finish reason `length`), streamed or not.
 */
export function maxCharsForTokens(maxTokens: number): number {
  return Math.max(2_000, maxTokens * 4);
}
