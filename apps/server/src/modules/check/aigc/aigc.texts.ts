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
    `说明：AIGC指数为统计模型的估计，仅供参考，不能作为认定文本由AI生成的证据。指数达到 ${threshold} 的段落标为疑似；该阈值按人工撰写的学术文本误报率不超过 1% 选定。全文指数低于阈值但有段落标为疑似时，仍给出全文指数（参考值）；没有疑似段落时显示“未见明显AI生成特征”。`,
  paragraphNote: (score: number, reasons: string[]) =>
    `AIGC指数 ${score.toFixed(1)}（参考值）${reasons.length > 0 ? `：${reasons.join('；')}` : ''}`,
  footer: '本报告由统计模型自动生成，AIGC指数仅供参考，不能作为认定文本由AI生成的证据。',
  detecting: '正在检测AI生成特征',
  fileName: (stem: string) => `${stem}-AIGC检测报告.pdf`,
  // --- AIGC detection ordered with a similarity check (decision 0020) ---
  /** The section's heading in the similarity report (PDF, HTML). */
  sectionHeading: 'AIGC检测结果（参考值）',
  sectionTextHeading: 'AIGC检测：全文段落（红色底纹：疑似AI生成段落，颜色越深指数越高）',
  addonStatus: { pending: '待检测', done: '已完成', failed: '检测失败' },
  addonFailed: 'AIGC检测未能完成',
  addonFailedRefunded: (amount: string) =>
    `AIGC检测未能完成，已为您自动退还该部分费用 ¥${amount}（原路退回）；查重报告不受影响。`,
  addonFailedFree: 'AIGC检测未能完成，免费AIGC检测次数已退回；查重报告不受影响。',
  /** The refund's reason in the order's history. */
  addonRefundReason: 'AIGC检测未能完成，自动退还该部分款项',
  /** The upload's note when the add-on makes a check that could be free a paid one. */
  addonNotFree:
    '同时检测AIGC时，只有免费查重与免费AIGC检测两次免费次数都可用（且字数在免费上限内）才整单免费；本单按价计费，您的免费次数保留未用。',
  addonNotForAigc: 'AIGC检测不能再加购AIGC检测，请选择查重类型',
  addonUnavailable: '暂不提供同时检测AIGC，请单独下单AIGC检测',
  addonTooManyChars: (chars: number, max: number) =>
    `论文共 ${chars.toLocaleString('zh-CN')} 字，超过AIGC检测的上限 ${max.toLocaleString('zh-CN')} 字，请取消“同时检测AIGC”`,
  addonFreeUsed: '免费AIGC检测次数已使用，请重新上传并付费检测',
} as const;
