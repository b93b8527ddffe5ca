/**
 * Finds the JSON value in a model's answer: the text itself, or inside a ```json fence, or the
 * outermost {...} / [...] with prose around it; then tolerates trailing commas. Returns undefined
 * when nothing parses (the caller asks the model again).
 */
export function parseJsonLoose(text: string): unknown {
  const candidates: string[] = [text.trim()];
  const fence = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/.exec(text);
  if (fence?.[1]) candidates.push(fence[1].trim());
  const start = text.search(/[[{]/);
  if (start >= 0) {
    const close = text[start] === '{' ? '}' : ']';
    const end = text.lastIndexOf(close);
    if (end > start) candidates.push(text.slice(start, end + 1));
  }
  for (const candidate of candidates) {
    for (const form of [candidate, candidate.replace(/,\s*([}\]])/g, '$1')]) {
      try {
        return JSON.parse(form);
      } catch {
        // next form
      }
    }
  }
  return undefined;
}
