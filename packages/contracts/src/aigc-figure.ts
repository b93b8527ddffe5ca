/**
 * Whether an AIGC result shows the document's index as a figure (a reference value, 参考): when it is
 * in the reliable range, and whenever any paragraph is flagged — the verdict and the red shading
 * never disagree (a report never says 未见明显AI生成特征 beside shaded paragraphs).
 */
export function isAigcFigureShown(f: { reliable: boolean; flaggedChars: number }): boolean {
  return f.reliable || f.flaggedChars > 0;
}
