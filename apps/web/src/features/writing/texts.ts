/** Every text of the AI writing pages. */
export const writingTexts = {
  sandboxNotice:
    '当前为沙箱演示环境：题目、提纲、摘要和正文均由模板生成并标有【沙箱示例】，不是人工智能写作结果，仅用于体验流程。',
  steps: ['题目与要求', '提纲', '摘要与下单', '全文与下载'],
  topic: '论文主题',
  topicPlaceholder: '例如：城市社区养老服务',
  discipline: '学科专业',
  disciplinePlaceholder: '例如：社会学',
  degree: '学历层次',
  targetWords: '目标字数',
  requirements: '写作要求（选填）',
  requirementsPlaceholder: '例如：侧重实证分析，需要包含问卷设计',
  suggestTitles: '生成题目',
  titleLabel: '论文题目',
  titlePlaceholder: '选择上面的建议，或自己输入',
  saveAndOutline: '保存并生成提纲',
  freeOutlines: (n: number) =>
    n > 0 ? `剩余免费提纲 ${n} 次` : '免费提纲已用完，可直接下单，由系统生成提纲后撰写全文',
  orderWithoutOutline: '直接下单（系统生成提纲）',
  outlineTitle: '编辑提纲',
  outlineHint:
    '可以改名、增删条目、上下移动，并为条目设置字数和“表格/公式/代码/图片”。各章字数合计应接近目标字数（相差不超过 10%）。',
  outlineTotal: (sum: number, target: number) => `合计 ${sum} 字 / 目标 ${target} 字`,
  addChapter: '添加一章',
  addChild: '添加下级',
  remove: '删除',
  moveUp: '上移',
  moveDown: '下移',
  flags: { form: '表格', formula: '公式', code: '代码', picture: '图片' },
  regenerateOutline: '重新生成提纲',
  saveOutline: '保存提纲',
  outlineSaved: '提纲已保存',
  abstractTitle: '摘要',
  makeAbstract: '生成摘要',
  keywords: '关键词：',
  orderTitle: '购买全文',
  orderHint:
    '付款后系统按提纲逐节撰写全文，并从文献库中检索真实文献作为参考文献；正文只引用检索到的文献，无法对应的引用会被删除。',
  submitOrder: '提交订单并支付',
  progressTitle: '全文生成进度',
  writing: (done: number, words: number) => `已完成 ${done} 节，约 ${words} 字`,
  removedCitations: (n: number) => `已删除 ${n} 处无法对应文献的引用`,
  download: '下载 Word 文档',
  downloadHint:
    '文档含“人工智能生成”显式标识与文件元数据中的隐式标识（依《人工智能生成合成内容标识办法》）。',
  failed: '全文生成失败，费用已自动退还。',
  newWriting: '新建写作',
  myOrders: '查看写作订单',
  sources: (n: number) =>
    n > 0 ? `已检索到 ${n} 篇文献库中的相关文献` : '文献库中没有检索到相关文献，正文将不引用文献',
  payTitle: 'AI 写作全文',
  listEmpty: '还没有写作记录',
  listTitle: '我的写作',
  open: '打开',
  loginFirst: '请先登录后使用 AI 写作',
} as const;

export const DEGREES = ['专科', '本科', '硕士', '博士'] as const;
