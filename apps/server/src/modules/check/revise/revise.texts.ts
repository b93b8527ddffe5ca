/** The Chinese texts of revise in the report (the server's side). */
export const REVISE_TEXTS = {
  onlySimilarity: 'AIGC检测报告不支持在线修改，请在查重报告中修改',
  notDone: '检测完成后才能在报告中修改',
  textGone: '论文原文已删除，无法在线修改',
  noParagraph: '该段落不存在，请刷新报告后重试',
  tooManyChars: (chars: number, max: number) =>
    `修改后全文共 ${chars.toLocaleString('zh-CN')} 字，超过该检测类型的上限 ${max.toLocaleString('zh-CN')} 字`,
  orderLimit: (n: number) => `本篇论文今日的实时复检次数（${n} 次）已用完，请于明天 00:00 后再试`,
  accountLimit: (n: number) => `账号今日的实时复检次数（${n} 次）已用完，请于明天 00:00 后再试`,
  noDraft: '还没有修改任何段落，无需保存版本',
  tooManyVersions: (n: number) => `每篇论文最多保存 ${n} 个版本，请在已有版本的基础上继续修改`,
  noVersion: '该版本不存在',
  fileName: (stem: string, version: number | null) =>
    `${stem}-修改稿${version ? `-版本${version}` : ''}.docx`,
  docxNote: '修改稿（实时复检的数字仅供参考；正式报告请生成正式报告）',
  formatLost: '说明：未能在原文档中逐段定位修改的段落，本文件按纯文本重新排版，原格式未保留。',
} as const;
