/** Texts of the landing page. */
export const homeTexts = {
  eyebrow: '面向学生与科研作者的学术服务平台',
  heroTitleA: '论文查重、降重与 AI 写作',
  heroTitleB: '一站完成',
  heroText:
    '从选题、提纲到定稿与提交前自查：可靠的相似度检测、保持原意的智能降重、降低 AIGC 痕迹，以及规范的 AI 辅助写作，陪你走完论文的每一步。',
  ctaCheck: '立即查重',
  ctaAi: 'AI 写作',
  trust: ['论文默认不入库', '数据存储在中国大陆', '报告在线查看与下载'],
  sampleTitle: '检测报告示例',
  sampleRows: [
    { label: '总文字复制比', value: 12.6 },
    { label: '去除引用文献复制比', value: 8.4 },
    { label: '单篇最大文字复制比', value: 3.1 },
  ],
  sampleChapters: '按章节查看 · 按来源查看 · 原文对照',
  servicesTitle: '我们的服务',
  servicesSubtitle: '覆盖论文写作、检测、修改到成果证明的全过程',
  useNow: '立即使用',
  freeTitle: '注册即送免费体验',
  freeText:
    '用手机号注册或微信扫码登录，账号即获得以下权益（每个手机号、每个微信仅限一次），在个人中心查看。',
  freeRegister: '免费注册',
  freeLogin: '微信扫码登录',
  freeMine: '查看我的权益',
  benefitsLabel: '注册赠送的权益',
  benefitKinds: {
    free_check: '免费查重一次',
    free_aigc_detection: '免费AIGC检测一次',
    ai_writing_trial: 'AI写作体验一次',
    online_support: '一对一在线服务',
  } as Record<string, string>,
  benefitAvailable: '可使用',
  benefitSoon: '即将开放',
  stepsTitle: '三步完成论文查重',
  steps: [
    { title: '上传论文', text: '支持 doc、docx、pdf、txt，自动识别章节与参考文献。' },
    { title: '确认并支付', text: '微信或支付宝扫码支付，也支持线下支付。' },
    { title: '查看报告', text: '在线查看交互报告，下载 PDF，逐段修改。' },
  ],
  promiseTitle: '用得放心',
  promises: [
    {
      title: '报告仅供参考',
      text: '相似度报告是程序比对的结果，不是对学术不端的最终判定，最终以学校或期刊的认定为准。',
    },
    { title: '论文不入库', text: '你上传的论文不会加入比对库，也不会用于模型训练，除非你主动同意。' },
    { title: '数据境内存储', text: '个人信息与论文数据存储在中国大陆境内，账号可随时自助注销。' },
    { title: '匿名浏览不收集', text: '未登录浏览网站时，我们不收集任何个人信息。' },
  ],
} as const;
