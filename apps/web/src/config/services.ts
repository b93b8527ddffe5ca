import type { RouteName } from './paths';

/** One service of the product as the header, the landing page and its page frame describe it. */
export interface ServiceInfo {
  route: RouteName;
  /** Short name for navigation. */
  name: string;
  /** Page title. */
  title: string;
  /** One line for cards. */
  summary: string;
  /** A paragraph for the page header. */
  description: string;
  /** Highlights shown on the page frame. */
  highlights: readonly { title: string; text: string }[];
  /** The steps a student goes through. */
  steps: readonly string[];
}

export const services = {
  check: {
    route: 'check',
    name: '论文查重',
    title: '论文查重',
    summary: '多维度相似度检测，逐段标注重复来源，报告在线查看与下载。',
    description:
      '上传论文即可检测与比对库中文献的相似情况，各检测类型的比对范围与收录篇数以下方所列为准。报告给出总文字复制比、去除引用文献复制比、单篇最大文字复制比与逐章节明细，帮助你在提交前找到需要修改的段落。也可选择“AIGC检测”，逐段估计疑似AI生成内容的AIGC指数（参考值）并说明依据。',
    highlights: [
      { title: '多格式上传', text: '支持 doc、docx、pdf、txt，自动识别章节、引用与参考文献。' },
      { title: '指标清晰', text: '总复制比、去引用复制比、单篇最大复制比，逐章、逐来源列出。' },
      { title: '报告可下载', text: '网页版交互报告与 PDF 报告，方便与导师沟通修改。' },
      { title: '默认不入库', text: '你上传的论文不会被加入比对库，除非你主动同意。' },
    ],
    steps: ['上传论文', '确认订单并支付', '等待检测完成', '查看与下载报告'],
  },
  reduction: {
    route: 'reduction',
    name: '论文降重',
    title: '论文降重',
    summary: '针对重复段落智能改写，保持原意与学术规范，改写前后用本站比对库各测一次重复率。',
    description:
      '粘贴正文或上传论文（.docx/.doc/.pdf/.txt）后，系统先用本站比对库找出重复段落，再逐段进行同义改写、句式调整与语序重组。数字、引用标注、公式、引文和术语由程序逐项核对，未通过核对的段落保留原文。改写前后的文字复制比与AIGC指数并排给出，可下载 Word 文档；上传的 .docx 保留原有标题、编号、表格、图片和样式，只替换改写的段落。',
    highlights: [
      { title: '保持原意', text: '数字、单位、引用标注、公式与术语逐项核对，不通过就保留原文。' },
      { title: '逐段对照', text: '原文与改写结果并排显示，删改与新增处分别标出。' },
      { title: '前后实测', text: '改写前后各测一次本站文字复制比与AIGC指数，仅供参考。' },
    ],
    steps: ['粘贴正文或上传文件', '确认费用并支付', '等待逐段改写', '对照查看并下载'],
  },
  'reduction-aigc': {
    route: 'reduction-aigc',
    name: '降AIGC',
    title: '降AIGC率',
    summary: '降低 AI 生成内容痕迹，让表达更自然，改写前后用本站检测器各测一次。',
    description:
      '许多学校已开始检测论文中的 AI 生成内容（AIGC）。粘贴正文或上传论文后，系统先用本站AIGC检测器找出疑似AI生成的段落，再逐段重写，减少模板化连接词、丰富句式变化；数字、引用与术语由程序逐项核对。',
    highlights: [
      { title: '先检测后处理', text: '本站检测器给出疑似段落，只改写需要的段落。' },
      { title: '自然表达', text: '打破模板化句式，保留论证结构与专业内容。' },
      { title: '结果可对照', text: '处理前后逐段比对，并给出前后AIGC指数（参考值）。' },
    ],
    steps: ['粘贴正文或上传文件', '确认费用并支付', '检测并逐段改写', '查看与下载结果'],
  },
  ai: {
    route: 'ai',
    name: 'AI论文写作',
    title: 'AI论文写作',
    summary: '从选题、提纲到摘要与全文，AI 辅助完成论文初稿。',
    description:
      '输入题目与专业方向，AI 为你推荐选题、生成可编辑的多级提纲，再据此撰写摘要与正文，并附真实可查的参考文献与学校格式模板。适用于毕业论文、开题报告、课程作业与期刊论文。',
    highlights: [
      { title: '选题与提纲', text: '推荐题目，生成三级提纲，可自由增删调整。' },
      { title: '摘要与全文', text: '按提纲逐章写作，可设定字数、图表、公式与代码。' },
      { title: '参考文献', text: '中英文文献检索，格式规范，可核对来源。' },
      { title: '格式模板', text: '按模板排版，一键下载 Word 文档。' },
    ],
    steps: ['填写题目与要求', '确认提纲', '生成并修改内容', '下载文档'],
  },
  searchReport: {
    route: 'searchReport',
    name: '检索报告',
    title: '收录引用检索报告',
    summary: '论文收录与被引情况检索证明，适用于评职称、项目申报与评奖。',
    description:
      '根据你提供的论文清单，在 SCI、EI、SSCI、CSSCI、北大核心等数据库中检索收录与被引用情况，出具规范的检索报告，可用于职称评审、基金申报、人才评价与奖项申报。',
    highlights: [
      { title: '覆盖主流数据库', text: '国内外主流索引与核心期刊目录。' },
      { title: '格式规范', text: '报告包含检索范围、检索结果与检索人员信息。' },
      { title: '纸质报告可邮寄', text: '电子版在线下载，纸质版可快递寄送。' },
    ],
    steps: ['提交论文清单', '确认检索范围与费用', '检索与出具报告', '下载或邮寄'],
  },
  technologySearch: {
    route: 'technologySearch',
    name: '科技查新',
    title: '科技查新',
    summary: '项目立项、成果鉴定与专利申请前的新颖性检索与对比分析。',
    description:
      '科技查新通过文献检索与对比分析，判断研究项目或科技成果在国内外是否具有新颖性，出具查新报告。我们同时提供文献下载服务与科技成果评价服务。',
    highlights: [
      { title: '查新报告', text: '立项、鉴定、报奖、申报专利所需的新颖性结论。' },
      { title: '文献下载服务', text: '中外文期刊、学位论文、专利与标准原文获取。' },
      { title: '科技成果评价', text: '对成果的创新性、先进性与应用价值进行评价。' },
    ],
    steps: ['提交查新委托', '确定查新点与检索策略', '检索与对比分析', '出具报告'],
  },
  'technologySearch-downloadService': {
    route: 'technologySearch-downloadService',
    name: '文献下载服务',
    title: '文献下载服务',
    summary: '中外文期刊、学位论文、专利与标准原文获取。',
    description:
      '提供文献题录或 DOI，我们帮你获取中外文期刊论文、学位论文、会议论文、专利与标准的原文，用于学习与研究。',
    highlights: [
      { title: '来源广泛', text: '国内外期刊、学位论文、会议、专利与标准。' },
      { title: '合法合规', text: '仅限个人学习与研究使用。' },
      { title: '进度可查', text: '在个人中心查看处理进度与下载。' },
    ],
    steps: ['提交文献信息', '确认费用', '获取原文', '在线下载'],
  },
  'technologySearch-techEvaluation': {
    route: 'technologySearch-techEvaluation',
    name: '科技成果评价',
    title: '科技成果评价',
    summary: '对科技成果的创新性、先进性与应用价值进行第三方评价。',
    description:
      '组织同行专家，依据查新结果与技术资料，对科技成果的创新程度、技术水平、成熟度与应用前景进行评价，出具评价报告，用于成果登记、报奖与转化。',
    highlights: [
      { title: '专家评审', text: '同领域专家独立评议。' },
      { title: '依据充分', text: '以查新报告与测试数据为基础。' },
      { title: '用途广泛', text: '成果登记、报奖、转化与融资。' },
    ],
    steps: ['提交评价申请与材料', '形式审查', '专家评价', '出具评价报告'],
  },
  industryNews: {
    route: 'industryNews',
    name: '行业资讯',
    title: '行业资讯',
    summary: '学术动态、政策解读与论文写作指南。',
    description: '关注学位论文抽检、学术规范、期刊投稿与科研政策的最新动态，以及实用的论文写作与查重指南。',
    highlights: [],
    steps: [],
  },
} as const satisfies Record<string, ServiceInfo>;

/** The AI writing areas (children of /ai). */
export const aiWritingAreas = [
  {
    route: 'ai-dissertation',
    name: '毕业论文',
    summary: '本科、硕士学位论文：选题、提纲、正文与参考文献。',
    description:
      '输入题目、专业与学历层次，生成符合学位论文结构的三级提纲，逐章撰写正文，附参考文献与学校格式模板。',
  },
  {
    route: 'ai-proposal',
    name: '开题报告',
    summary: '研究背景、国内外现状、研究内容与技术路线。',
    description:
      '围绕选题依据、国内外研究现状、研究内容、研究方法与技术路线、进度安排，生成结构完整的开题报告。',
  },
  {
    route: 'ai-assignment',
    name: '课程作业',
    summary: '课程论文、读书报告、实验报告与结课作业。',
    description:
      '根据课程要求与字数，快速生成结构清晰的课程论文、读书报告或实验报告初稿，便于在此基础上修改完善。',
  },
  {
    route: 'ai-journalsReviewed',
    name: '期刊论文',
    summary: '面向期刊投稿的研究论文，结构规范、论证严谨。',
    description:
      '按期刊论文常见结构（引言、方法、结果、讨论、结论）组织内容，突出创新点，参考文献格式可按目标期刊调整。',
  },
] as const satisfies readonly { route: RouteName; name: string; summary: string; description: string }[];

/** The header navigation, in order. */
export const mainNav: readonly { route: RouteName; name: string }[] = [
  { route: 'index', name: '首页' },
  { route: 'check', name: services.check.name },
  { route: 'reduction', name: services.reduction.name },
  { route: 'reduction-aigc', name: services['reduction-aigc'].name },
  { route: 'ai', name: services.ai.name },
  { route: 'searchReport', name: services.searchReport.name },
  { route: 'technologySearch', name: services.technologySearch.name },
  { route: 'industryNews', name: services.industryNews.name },
];
