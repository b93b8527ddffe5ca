/** The Chinese texts of AIGC detection on the server (report PDF, file names, stage). */
export const AIGC_TEXTS = {
  reportTitle: 'AIGC检测报告',
  resultHeading: '检测结果（参考值）',
  indexLabel: 'AIGC指数（参考值）',
  verdict: '结论',
  totalChars: '总字数',
  scoredChars: '参与检测字数',
  flaggedParagraphs: '疑似段落 / 检测段落',
  flaggedShare: '疑似段落字数占比（参考值）',
  modelVersion: '检测模型',
  reasonsHeading: '主要依据',
  textHeading: '全文检测结果（红色底纹：疑似AI生成段落，颜色越深指数越高）',
  thresholdNote: (threshold: number) =>
    `说明：AIGC指数为统计模型的估计，仅供参考，不能作为认定文本由AI生成的证据。指数达到 ${threshold} 的段落标为疑似；该阈值按人工撰写的学术文本误报率不超过 1% 选定。低于阈值或文字过短时不给出数值，显示“未见明显AI生成特征”。`,
  paragraphNote: (score: number, reasons: string[]) =>
    `AIGC指数 ${score.toFixed(1)}（参考值）${reasons.length > 0 ? `：${reasons.join('；')}` : ''}`,
  footer: '本报告由统计模型自动生成，AIGC指数仅供参考，不能作为认定文本由AI生成的证据。',
  detecting: '正在检测AI生成特征',
  fileName: (stem: string) => `${stem}-AIGC检测报告.pdf`,
} as const;
