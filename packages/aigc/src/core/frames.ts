/**
 * Template framing: the stock openings and closings of generated essays (在当今社会快速发展的背景下…,
 * 综上所述…总而言之…). The training data (question answers, abstracts) holds almost none of them, so
 * the model cannot learn them; they are found by rule instead. A rule fires only on a stack of stock
 * phrases — one phrase alone is ordinary academic Chinese (随着…的发展, 综上所述 in a thesis) — and
 * was checked on the development split's human text (CSL abstracts, HC3 answers), where it fires on
 * almost none (npm run bench:aigc shows the held-out figures).
 */

/** Summary markers of a closing; two different ones in one paragraph are a template closing. */
const SUMMARY_MARKERS: readonly string[] = [
  '综上所述',
  '总而言之',
  '总的来说',
  '总之',
  '由此可见',
  '概而言之',
];

/** Stock phrases of an opening or a closing, each counted once per paragraph. */
const FRAME_PHRASES: readonly RegExp[] = [
  /在当今(?:社会|时代|世界)/u,
  /(?:快速|飞速|迅猛|蓬勃|高速|迅速|不断)发展的(?:背景下|今天|时代)/u,
  /随着[^。！？；]{1,24}的(?:快速|飞速|迅猛|蓬勃|不断|日益|深入|持续)(?:发展|进步|推进|普及|深化)/u,
  /受到了?(?:社会各界|各界|人们|越来越多[^。！？；，]{0,6})的?(?:高度|广泛|普遍)?(?:关注|重视)/u,
  /具有(?:十分|非常|极其)?重要的?(?:理论意义和现实意义|理论和现实意义|理论与现实意义|现实意义)/u,
  /(?:提供|给予)(?:了)?(?:有力|坚实|强有力的|重要)(?:的)?(?:支撑|保障)/u,
  /推动[^。！？；]{0,16}高质量发展/u,
  /具有(?:广阔|广泛)的(?:应用|发展)?前景/u,
  /只有[^。！？；]{2,40}，?才能/u,
  /(?:成为|是)(?:推动|促进)[^。！？；]{1,16}的重要(?:力量|引擎|动力)/u,
];

export interface FrameHits {
  /** Different summary markers in the paragraph. */
  summaries: number;
  /** Different stock phrases (FRAME_PHRASES) in the paragraph. */
  phrases: number;
}

export function frameHits(text: string): FrameHits {
  return {
    summaries: SUMMARY_MARKERS.filter((m) => text.includes(m)).length,
    phrases: FRAME_PHRASES.filter((p) => p.test(text)).length,
  };
}

/** A template opening or closing: two summary markers, or three stock phrases (one marker counts as one). */
export function isTemplateFrame(text: string): boolean {
  const h = frameHits(text);
  return h.summaries >= 2 || h.phrases + Math.min(h.summaries, 1) >= 3;
}
