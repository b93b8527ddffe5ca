/** School format templates (/aiWriting/formatTemplate): what the .docx is laid out with. */
export interface FormatTemplate {
  id: string;
  name: string;
  description: string;
  /** Half-points (docx): 小四 24, 五号 21, 三号 32, 四号 28, 小三 30. */
  bodySize: number;
  chapterSize: number;
  sectionSize: number;
  /** Twips (1 cm = 567). */
  marginTop: number;
  marginBottom: number;
  marginLeft: number;
  marginRight: number;
  /** Line spacing in 240ths of a line (360 = 1.5 lines). */
  lineSpacing: number;
  header: string;
}

export const FORMAT_TEMPLATES: readonly FormatTemplate[] = [
  {
    id: 'general',
    name: '通用本科毕业论文格式',
    description:
      '正文宋体/Times New Roman 小四号、1.5 倍行距、首行缩进 2 字；章标题黑体三号居中（第1章），节标题黑体四号（1.1），小节黑体小四（1.1.1）；页边距上下 2.5 cm、左 3 cm、右 2.5 cm；摘要和目录页用罗马数字页码，正文从阿拉伯数字 1 开始；目录为可更新的 Word 目录域；页眉为论文题目。',
    bodySize: 24,
    chapterSize: 32,
    sectionSize: 28,
    marginTop: 1418,
    marginBottom: 1418,
    marginLeft: 1701,
    marginRight: 1418,
    lineSpacing: 360,
    header: 'title',
  },
  {
    id: 'journal',
    name: '期刊论文格式',
    description:
      '正文宋体/Times New Roman 五号、单倍行距；章标题黑体小三，节标题黑体四号；页边距 2.5 cm；页码阿拉伯数字；页眉为论文题目。',
    bodySize: 21,
    chapterSize: 30,
    sectionSize: 28,
    marginTop: 1418,
    marginBottom: 1418,
    marginLeft: 1418,
    marginRight: 1418,
    lineSpacing: 240,
    header: 'title',
  },
];

export function templateOf(id: string): FormatTemplate {
  return FORMAT_TEMPLATES.find((t) => t.id === id) ?? FORMAT_TEMPLATES[0]!;
}
