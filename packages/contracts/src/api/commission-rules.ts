/**
 * The commissioned services' form rules: choices, limits and messages that the web forms check
 * before sending and the contract's schemas (commission.ts) check again. Free of zod on purpose,
 * like form-rules.ts: a page importing these does not pull zod into its bundle.
 */

/** The four commissioned services (their order service types). */
export const COMMISSION_SERVICES = [
  'search_report',
  'tech_search',
  'doc_delivery',
  'tech_evaluation',
] as const;
export type CommissionService = (typeof COMMISSION_SERVICES)[number];

/** The product names, as every list, invoice and record shows them. */
export const COMMISSION_SERVICE_NAMES: Readonly<Record<CommissionService, string>> = {
  search_report: '收录引用检索报告',
  tech_search: '科技查新',
  doc_delivery: '文献下载服务',
  tech_evaluation: '科技成果评价',
};

/** What the delivered report of each service is called. */
export const COMMISSION_REPORT_NAMES: Readonly<Record<CommissionService, string>> = {
  search_report: '检索报告',
  tech_search: '查新报告',
  doc_delivery: '文献全文',
  tech_evaluation: '评价报告',
};

/** Retrieval databases of a 检索报告. */
export const SEARCH_DATABASES = [
  { value: 'SCIE', label: 'SCI-E（科学引文索引扩展版）' },
  { value: 'SSCI', label: 'SSCI（社会科学引文索引）' },
  { value: 'AHCI', label: 'A&HCI（艺术与人文引文索引）' },
  { value: 'EI', label: 'EI（工程索引）' },
  { value: 'CPCI', label: 'CPCI（会议录引文索引）' },
  { value: 'CSSCI', label: 'CSSCI（中文社会科学引文索引）' },
  { value: 'CSCD', label: 'CSCD（中国科学引文数据库）' },
  { value: 'PKU', label: '北大核心（中文核心期刊要目总览）' },
] as const;
export type SearchDatabase = (typeof SEARCH_DATABASES)[number]['value'];

export const CITATION_OPTIONS = [
  { value: 'none', label: '只检索收录' },
  { value: 'total', label: '收录 + 被引总次数' },
  { value: 'separate', label: '收录 + 被引（他引、自引分开）' },
] as const;

export const SEARCH_PURPOSES = ['职称评审', '基金申报', '人才评价', '奖项申报', '学位申请', '其他'] as const;
export const TECH_SEARCH_PURPOSES = ['立项', '成果鉴定/评价', '报奖', '专利', '其他'] as const;
export const TECH_SEARCH_SCOPES = [
  { value: 'domestic', label: '国内' },
  { value: 'global', label: '国内外' },
] as const;
export const URGENCY_OPTIONS = [
  { value: 'standard', label: '常规' },
  { value: 'urgent', label: '加急' },
] as const;
export const DELIVERY_OPTIONS = [
  { value: 'pdf', label: '电子版（盖章 PDF）' },
  { value: 'print', label: '电子版 + 纸质版快递' },
] as const;
export const RESULT_TYPES = ['应用技术成果', '基础理论成果', '软科学成果'] as const;
export const EVALUATION_FORMS = ['会议评价', '函审评价', '现场评价'] as const;

/** Attachments: documents only, read through the check's extraction (sniffed, in a worker, with limits). */
export const COMMISSION_FILE_RULES = {
  maxBytes: 20 * 1024 * 1024,
  maxFiles: 10,
  extensions: ['.pdf', '.doc', '.docx', '.txt'],
  accept: '.pdf,.doc,.docx,.txt',
  missing: '请选择要上传的文件',
  tooLarge: '文件不能超过 20 MB',
  unsupported: '只能上传 PDF、Word（.doc/.docx）或 TXT 文档',
  tooMany: '附件最多 10 个',
  unknown: '附件不存在或已失效，请重新上传',
} as const;

/** Limits and messages of the four forms (one place for the server and the web). */
export const COMMISSION_RULES = {
  contact: {
    name: { max: 20, required: '请填写联系人姓名', tooLong: '联系人姓名不能超过20个字' },
    phone: { required: '请填写联系电话', invalid: '请输入正确的手机号码' },
    unit: { max: 60, tooLong: '单位名称不能超过60个字' },
    email: { max: 100, invalid: '请输入正确的邮箱地址' },
  },
  deadline: {
    required: '请选择期望完成日期',
    invalid: '日期格式应为 YYYY-MM-DD',
    past: '期望完成日期须晚于今天',
  },
  urgency: { required: '请选择办理时效' },
  delivery: { required: '请选择交付方式' },
  copies: { min: 1, max: 10, invalid: '纸质份数须为 1 到 10 份' },
  note: { max: 500, tooLong: '备注不能超过500个字' },
  searchReport: {
    papers: { min: 1, max: 100, required: '请至少填写一篇论文', tooMany: '一次最多委托 100 篇论文' },
    paperTitle: { max: 300, required: '请填写论文题名', tooLong: '论文题名不能超过300个字' },
    paperAuthors: { max: 200, required: '请填写作者', tooLong: '作者不能超过200个字' },
    paperSource: { max: 200, tooLong: '期刊或会议名称不能超过200个字' },
    paperYear: { min: 1900, max: 2100, invalid: '发表年份应为 1900 到 2100 之间的四位数字' },
    databases: { required: '请至少选择一个检索数据库' },
    citations: { required: '请选择是否检索被引情况' },
    purpose: { required: '请选择检索用途' },
  },
  techSearch: {
    nameZh: { max: 100, required: '请填写项目中文名称', tooLong: '项目中文名称不能超过100个字' },
    nameEn: { max: 300, required: '请填写项目英文名称', tooLong: '项目英文名称不能超过300个字符' },
    purpose: { required: '请选择查新目的' },
    scope: { required: '请选择查新范围' },
    points: {
      min: 1,
      max: 10,
      itemMax: 300,
      required: '请至少填写一个查新点',
      tooMany: '查新点最多 10 个',
      tooLong: '每个查新点不能超过300个字',
    },
    summary: {
      min: 50,
      max: 3000,
      required: '请填写技术要点（科学技术要点）',
      tooShort: '技术要点不少于50个字',
      tooLong: '技术要点不能超过3000个字',
    },
    keywords: {
      min: 3,
      max: 10,
      itemMax: 40,
      requiredZh: '请至少填写3个中文检索词',
      requiredEn: '请至少填写3个英文检索词',
      tooMany: '检索词最多 10 个',
      tooLong: '每个检索词不能超过40个字符',
    },
    references: { max: 3000, tooLong: '已知文献不能超过3000个字' },
  },
  docDelivery: {
    items: { min: 1, max: 20, required: '请至少填写一篇文献', tooMany: '一次最多申请 20 篇文献' },
    citation: {
      max: 500,
      required: '请填写文献题录、DOI 或链接',
      tooLong: '每条文献信息不能超过500个字',
    },
    personalUse: { required: '请确认所申请文献仅用于个人学习研究' },
  },
  techEvaluation: {
    name: { max: 100, required: '请填写成果名称', tooLong: '成果名称不能超过100个字' },
    type: { required: '请选择成果类型' },
    units: { max: 300, required: '请填写完成单位', tooLong: '完成单位不能超过300个字' },
    form: { required: '请选择评价形式' },
    summary: {
      min: 50,
      max: 3000,
      required: '请填写成果简介',
      tooShort: '成果简介不少于50个字',
      tooLong: '成果简介不能超过3000个字',
    },
    materials: { required: '请上传评价材料（技术报告、查新报告、检测报告等）' },
  },
} as const;

/** How each service is priced (docs/api/commission.md). */
export const COMMISSION_PRICING: Readonly<Record<CommissionService, 'per_item' | 'fixed' | 'quote'>> = {
  search_report: 'per_item',
  tech_search: 'fixed',
  doc_delivery: 'per_item',
  tech_evaluation: 'quote',
};
