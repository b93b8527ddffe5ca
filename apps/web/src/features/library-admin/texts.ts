import { LIBRARY_COLLECTION_NAMES, LIBRARY_IMPORT_RULES, UNTITLED_SOURCE } from '@kyfw/contracts';

/** Texts of the console's comparison-library page (/admin/library). */
export const libraryAdminTexts = {
  title: '比对库',
  intro:
    '查重只比对库中已收录的文献：某检测类型比对的库全部为空时，该类型暂停销售（AIGC检测不受影响）。导入与删除仅限管理员，客服可查看。',
  statsTitle: '馆藏统计',
  statsColumns: { name: '比对库', documents: '文档数', chars: '字符数', lastAddedAt: '最近入库' },
  total: '合计',
  never: '暂无收录',
  goodsTitle: '查重类商品',
  onSale: '在售',
  offSale: '暂停销售',
  importTitle: '导入文档',
  importHelp:
    '.jsonl / .jsonl.gz：每行一个 JSON 对象 {"id", "title", "text"（或 "abstract"）, "authors", "year", "source"}；.zip：其中的 .docx、.doc、.pdf、.txt 论文（同名 .json 可提供题名、作者等）。先逐条校验，有问题的文件不会导入任何文档；已导入的编号自动跳过。',
  collectionLabel: '导入到',
  fileLabel: '文件',
  pickFile: '选择文件',
  start: '开始导入',
  started: '已开始导入，进度见下方',
  importsTitle: '导入记录',
  importColumns: {
    file: '文件',
    collection: '比对库',
    status: '状态',
    progress: '进度',
    result: '结果',
    who: '操作人',
    at: '提交时间',
  },
  statuses: { queued: '排队中', running: '导入中', succeeded: '已完成', failed: '失败' } as const,
  summary: (s: {
    added: number;
    skippedExisting: number;
    skippedDuplicates: number;
    skippedInvalid: number;
  }) =>
    `新增 ${s.added} 篇，已存在跳过 ${s.skippedExisting} 篇，重复正文跳过 ${s.skippedDuplicates} 篇${s.skippedInvalid ? `，无效 ${s.skippedInvalid} 篇` : ''}`,
  searchTitle: '检索文档',
  searchPlaceholder: '题名、作者或文档编号',
  allCollections: '全部比对库',
  userTab: '用户授权论文',
  docsTab: '全部文档',
  userHelp:
    '用户在 /check 上传论文时勾选“允许将本文加入比对库”（默认不勾选）的论文，检测完成后加入用户授权论文库，今后与其他论文比对。',
  docColumns: {
    id: '编号',
    title: '题名',
    authors: '作者',
    source: '来源',
    year: '年份',
    collection: '比对库',
    chars: '字数',
    addedAt: '入库时间',
    action: '操作',
  },
  untitled: UNTITLED_SOURCE,
  remove: '删除',
  removeConfirm: '从比对库删除这篇文档？删除后新的检测不再与它比对（已出的报告不变），操作记入审计日志。',
  removed: '已从比对库删除',
  collections: LIBRARY_COLLECTION_NAMES,
  rules: LIBRARY_IMPORT_RULES,
  count: (n: number) => n.toLocaleString('zh-CN'),
  totalOf: (n: number) => `共 ${n} 篇`,
} as const;
