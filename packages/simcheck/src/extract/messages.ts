import type { ExtractErrorKind } from './errors.ts';

// 用户可见的中文提示，集中在此处，不在各解析器里散落字面量。

export const errorMessages: Readonly<Record<ExtractErrorKind, string>> = {
  unsupported: '不支持的文件格式，请上传 .docx、.doc、.pdf 或 .txt 文件',
  'too-large': '文件过大或内容过多，超出检测限制',
  encrypted: '文件已加密，请去除密码后重新上传',
  scanned: '未能从 PDF 中提取到文字，文件可能是扫描件或图片，请上传带文字层的 PDF 或 Word 文档',
  broken: '文件已损坏或格式不正确，无法读取，请重新导出后上传',
  timeout: '文件解析超时，请检查文件或转换为 .docx 后重新上传',
  empty: '文件中没有可检测的文字',
  busy: '当前解析的文件较多，请稍后重新上传',
  aborted: '上传已取消，文件未解析',
};

export const detailMessages = {
  tooManyBytes: (maxBytes: number) => `文件超过 ${formatMegabytes(maxBytes)}，请压缩图片或拆分后上传`,
  tooManyChars: (maxChars: number) => `文字超过 ${maxChars.toLocaleString('zh-CN')} 字，超出单次检测上限`,
  tooManyPages: (maxPages: number) => `PDF 超过 ${maxPages} 页，超出单次检测上限`,
  decompressedTooLarge: '文件解压后内容过大（疑似压缩炸弹），已拒绝解析',
  tooManyZipEntries: '文件内部条目过多（疑似压缩炸弹），已拒绝解析',
  outOfMemory: '文件过于复杂，解析时超出内存限制',
  rtf: '这是 RTF 格式的文件（扩展名可能是 .doc），请在 Word 中另存为 .docx 后上传',
  word95: '这是 Word 6.0/95 等旧版格式，请在 Word 中另存为 .docx 后上传',
  otherOffice: '这不是 Word 文档（可能是表格或演示文稿），请上传论文的 .docx、.doc、.pdf 或 .txt 文件',
  pdfNotComplete: 'PDF 文件可能不完整（缺少文件结尾），提取的文字可能有缺失',
  pdfPermissions: 'PDF 设置了权限密码（可打开但限制复制），已按可读文字提取',
  gb18030: '文本按 GB18030（GBK）编码读取',
  utf16: '文本按 UTF-16 编码读取',
  undecodable: '文本中有无法识别的字符，已替换为 �',
} as const;

/** Section title placed before footnotes and endnotes in the extracted text. */
export const footnotesTitle = '注释';

function formatMegabytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}
