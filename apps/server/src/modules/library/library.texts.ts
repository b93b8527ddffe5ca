/** Every Chinese text of the console's comparison-library screen on the server side. */

export const TEXTS = {
  documentNotFound: '比对库中没有该文档（可能已被删除）',
  collectionBad: '请选择导入到学术期刊库、学位论文库或互联网资源库',
  emptyFile: '所选文件是空的（0 字节）',
  notGzip: '文件名以 .gz 结尾，但内容不是 gzip 压缩文件',
  notZip: '文件名以 .zip 结尾，但内容不是 zip 压缩包',
  notText: '文件不是 UTF-8 编码的 JSON lines 文本（每行一个 JSON 对象）',
  gzipBroken: 'gzip 文件已损坏或不完整，无法解压',
  zipBroken: 'zip 压缩包已损坏或不完整，无法解压',
  zipTooBig: (mb: number) => `压缩包解压后超过 ${mb} MB，请拆分后分批导入`,
  zipUnsafe: (name: string) => `压缩包中的路径不安全：${name}`,
  zipNoPapers: '压缩包中没有 .docx、.doc、.pdf 或 .txt 文件',
  noRecords: '文件中没有可导入的文档',
  /** The import's validation found bad records: nothing was added. */
  badRecords: (problems: readonly string[], total: number) =>
    `文件有 ${total} 处问题，未导入任何文档：${problems.join('；')}${total > problems.length ? '；……' : ''}`,
  lost: '导入文件已不存在，无法继续导入',
  progressQueued: '排队等待导入',
  progressChecking: (n: number) => `正在校验文件（已读 ${n} 篇）`,
  progressAdding: (done: number, total: number) => `正在导入 ${done} / ${total} 篇`,
  progressIndexing: '正在建立指纹索引',
  failedUnexpected: '导入失败（服务器错误），未完成的部分可重新上传同一文件继续导入',
} as const;

/** The audit log's names of this screen's actions (console.texts.ts spreads them into ACTION_TEXTS). */
export const LIBRARY_ACTION_TEXTS: Record<string, string> = {
  'library.stats': '查看比对库统计',
  'library.imports': '查看比对库导入记录',
  'library.import': '导入比对库文档',
  'library.search': '检索比对库文档',
  'library.remove': '删除比对库文档',
};
