/** Every Chinese text of the AI-writing module (messages, document labels). */
export const TEXTS = {
  titleRequired: '请先选择或输入论文题目',
  writingNotFound: '论文不存在或已删除',
  taskBookMissing: '请选择任务书或模板文件（.docx、.doc、.pdf 或 .txt）',
  taskBookTooLarge: '任务书文件不能超过 10 MB',
  outlineRequired: '请先生成并确认大纲',
  outlineBudgetMismatch: (sum: number, target: number) =>
    `各章字数合计 ${sum} 字，与目标字数 ${target} 字相差超过 10%，请调整`,
  enNotFound: '文献库中没有与检索词相关的英文文献（演示文献库不含英文文献），不会编造英文参考文献',
  noSources: '未在文献库中检索到与题目相关的文献，正文不引用任何文献（请自行补充真实文献）',
  locked: '论文已下单，题目和大纲不能再修改',
  notDone: (progress: number) => `全文尚未生成完成（${progress}%），请稍后再下载`,
  /** The refund's reason in the order's history (the status says where the money is). */
  refundReason: '全文生成多次失败，订单金额自动退还',
  failedStatus: '全文生成失败',
  /** Ended by an operator's full refund before the full text was written: the failure reason, and the status. */
  refundEnded: '订单已全额退款，全文生成已终止',
  refundedStatus: '已退款',
  aiFailed: 'AI 服务暂时不可用，请稍后再试（本次未扣费）',
  /** A free call (titles, outline, abstract) whose every answer failed the output checks. */
  aiRejected: (why: string) => `AI 生成的内容未通过检查（${why}），未采用，请稍后重试（本次未扣费）`,
  // What a rejected answer broke (writing.checked.ts), beside the shared rules of providers/llm.
  checkCutOff: '回答没有写完（结尾不是完整的句子）',
  checkOwnReferenceList: '正文后附有模型自拟的参考文献列表',
  checkUnresolvedCitations: (found: readonly string[]) =>
    `有无法对应参考文献的引用：${found.slice(0, 3).join('、')}`,
  checkPreambleInField: '字段中含有开场白或说明文字',
  checkBadShape: '回答不是要求的格式',
  sectionRejected: (path: string, why: string) => `第 ${path} 节多次生成均未通过检查：${why}`,
  finalAuditFailed: (found: readonly string[]) => `全文引用核查未通过：${found.slice(0, 3).join('、')}`,
  freeOutlineUsed: '免费大纲次数已用完，请先购买全文后再生成大纲',
  orderExists: '该论文已下单',
  deleteWhileWriting: '全文正在生成，暂不能删除',
  templateUnknown: '格式模板不存在',
  revisionNotDone: '全文生成完成后才能修改章节',
  revisionSectionUnknown: '没有找到这一节，请从目录中选择要修改的章节',
  revisionBusy: (path: string) => `第 ${path} 节正在修改，请等它完成后再修改其他章节`,
  revisionsUsedUp: (free: number) => `本篇的 ${free} 次免费修改已用完，购买“无限次修改”后可继续修改`,
  revisionFailed: '本节修改失败，原文未改动，本次不计入修改次数，请稍后再试',
  refundDeletedAccount: '账户已注销，AI写作未完成，自动全额退还款项',
  deletedAccountStatus: '账户已注销',
  refundClosedAccount: '账户因长期未登录已关闭，AI写作未完成，自动全额退还款项',
  closedAccountStatus: '账户已关闭',
  revisionsAlreadyUnlimited: '本篇已开通无限次修改',
  revisionsOrderChanged: '无限次修改的订单刚刚有变化，请刷新页面后再试',
  revisionsDraftDeleted: '论文已删除，无法开通无限次修改，自动退还款项',
  // Document labels (the .docx).
  aiLabelExplicit: '本文内容由人工智能生成，仅供参考，请核实后使用',
  aiLabelSandbox: '【沙箱示例】本文为演示用模板文字，并非人工智能写作结果',
  tocTitle: '目  录',
  tocHint: '（在 Word 中右击此处选择“更新域”生成目录）',
  abstractZh: '摘  要',
  abstractEn: 'Abstract',
  keywordsZh: '关键词：',
  keywordsEn: 'Key words: ',
  references: '参考文献',
  noReferences: '（本文未引用文献库中的文献；请补充真实可查的参考文献。）',
  referencesNote: (cited: number, retrieved: number, removed: number) =>
    `（以下 ${cited} 篇均为从文献库检索到的 ${retrieved} 篇真实记录或你提供的文献，未编造任何文献` +
    `${removed > 0 ? `；生成时删除了 ${removed} 处无法对应文献的引用` : ''}。请核对原文后使用。）`,
  referencesAuditFailed:
    '（引用核查未通过：正文中有无法对应以下参考文献的引用标注或文献信息，请逐条核对、删除后再使用。）',
  searchFound: (n: number) => `在文献库中检索到 ${n} 篇相关文献（只列出真实存在的记录，不编造）`,
  formulaUnreadable: (latex: string) => `［公式无法识别，原文：${latex}。请在 Word 中重新输入］`,
  figurePlaceholder: (caption: string) => `［图片占位：${caption}。请替换为你自己的图片］`,
  tableCaption: (n: string, caption: string) => `表${n} ${caption}`,
  figureCaption: (n: string, caption: string) => `图${n} ${caption}`,
  // The sandbox's figure: invented sample numbers, said to be invented (writing.sandbox.ts).
  sandboxFigureDataHead: '示例数据（虚构，仅用于演示图表绘制，请替换为你的真实数据）：',
  sandboxFigureCaption: '沙箱示例数据（虚构）',
  sandboxFigureSeries: '沙箱示例数据',
  sandboxChartNote: '沙箱示例数据，非真实数据',
} as const;

export const AREA_NAMES = {
  dissertation: '毕业论文',
  proposal: '开题报告',
  assignment: '课程作业',
  journalsReviewed: '期刊论文',
} as const;

export const AREA_GOODS = {
  dissertation: 'ai_writing_dissertation',
  proposal: 'ai_writing_proposal',
  assignment: 'ai_writing_assignment',
  journalsReviewed: 'ai_writing_journal',
} as const;

export const STATUS_TEXTS = {
  draft: '草稿',
  ordered: '待支付',
  writing: '正在生成全文',
  done: '已完成',
  failed: '生成失败',
} as const;
