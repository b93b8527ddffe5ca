/** A measure before and after, as the verdict under the figures names them. */
interface Figures {
  name: string;
  before: string;
  after: string;
}

/** Every text of the 降重 / 降AIGC pages. */
export const reductionTexts = {
  kindNames: { reduction: '降重', aigc_reduction: '降AIGC' },
  intro: {
    reduction:
      '粘贴正文或上传论文文件，系统先用本站比对库检测重复段落，再逐段改写。每段改写都由程序核对：数字（含正负号与单位）、人名地名机构名、增长/下降等方向与否定、引用、公式、术语不得改动，不得删句或新增内容，也不接受开场白、拒答、英文等非改写回答；未通过核对的段落保留原文并注明原因，这部分不收费，差额自动退回。',
    aigc_reduction:
      '粘贴正文或上传论文文件，系统先用本站AIGC检测器找出疑似AI生成的段落，再逐段改写。每段改写都由程序核对：数字（含正负号与单位）、人名地名机构名、增长/下降等方向与否定、引用、公式、术语不得改动，不得删句或新增内容，也不接受开场白、拒答、英文等非改写回答；未通过核对的段落保留原文并注明原因，这部分不收费，差额自动退回。',
  },
  /** What the check does not judge: said once under the result. */
  checkLimits:
    '程序核对的是事实与形式（数字、名称、方向、否定、句子对应、引用等），不判断改写后的语义是否完全等同于原文，请通读改写结果。',
  title: '标题（选填）',
  titlePlaceholder: '例如：在线教育平台学习者参与研究',
  text: '正文',
  textPlaceholder: '在此粘贴正文（按段落换行；标题、参考文献不会被改写）',
  chars: (n: number) => `共 ${n} 字`,
  price: (yuan: string) => `预计费用 ${yuan} 元`,
  unitPrice: (yuan: string, unit: string) => `${yuan} 元/${unit}`,
  submit: '提交并支付',
  modes: { text: '粘贴文本', file: '上传文件' },
  file: '论文文件',
  fileHint:
    '支持 .docx、.doc、.pdf、.txt；上传的 .docx 下载时保留原文档的标题、编号、表格、图片和样式，只替换改写的段落。扫描版 PDF 无法读取文字。',
  submitFile: '上传并支付',
  payTitle: { reduction: '支付降重费用', aigc_reduction: '支付降AIGC费用' },
  /** Before an upload: the price per unit; the amount follows from the characters the server reads. */
  filePrice: (yuan: string, unit: string) =>
    `价格 ${yuan} 元/${unit}，按文件中识别出的正文字数计费，字数与金额在上传后的支付窗口中显示。`,
  progressTitle: '正在改写',
  waitingPay: '订单待支付',
  pay: '去支付',
  resultTitle: '改写结果',
  before: '原文',
  after: '改写后',
  rate: '文字复制比（本站比对库）',
  aigc: 'AIGC指数（本站检测器，参考值）',
  arrow: '→',
  rewritten: '已改写',
  kept: '保留原文',
  unchanged: '未改写',
  download: '下载 Word 文档',
  again: '再提交一篇',
  /** The server's statusText says where the money is (已自动退款 only once it was); this is the fallback. */
  failed: '改写失败',
  refundTitle: '退款',
  listTitle: '我的降重',
  listEmpty: '暂无降重记录',
  open: '查看',
  del: '删除',
  delConfirm: '删除后不能恢复，确定删除吗？',
  measuresNote: '复制比与AIGC指数均由本站引擎在改写前后各测一次，仅供参考，不代表其他检测系统的结果。',
  loginFirst: '请先登录后提交',
  fromReport: {
    button: '一键降重',
    confirmTitle: '对本报告标红段落降重',
    confirmText:
      '只改写报告中标红的重复段落，其余内容保持原样；按提交的字数计费，确认后生成降重订单并进入支付。',
    ok: '生成降重订单',
    cancel: '取消',
    created: (paragraphs: number, amount: string) =>
      `已生成降重订单：${paragraphs} 个标红段落，费用 ${amount} 元`,
  },
  verdict: {
    rateName: '文字复制比',
    aigcName: 'AIGC指数',
    dropped: (f: Figures) => `${f.name}由 ${f.before} 降至 ${f.after}`,
    slight: (f: Figures) => `本次改写后${f.name}仅略有下降（${f.before} → ${f.after}），建议再人工修改`,
    unchanged: (f: Figures) => `本次改写后${f.name}基本未变（${f.before} → ${f.after}），没有实现下降`,
    rose: (f: Figures) => `本次改写后${f.name}反而升高（${f.before} → ${f.after}）`,
  },
};
