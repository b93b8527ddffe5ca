// A report model of an 80,000-character thesis with 600 marks, answered by the browser tests and
// the report-page benchmark in place of /freeCheck/report (the page must stay usable on it).

/** A report model of `chars` characters in 8 chapters with `marks` matches of all three kinds. */
export function syntheticReport(chars: number, marks: number) {
  const sentence = '城市交通拥堵治理的模式与路径研究表明公共服务供给绩效评估具有显著影响，';
  const chapters = 8;
  const perChapter = Math.floor(chars / chapters);
  let text = '';
  const sections = [];
  for (let c = 0; c < chapters; c++) {
    const start = text.length;
    const title = `第${c + 1}章 第${c + 1}部分的研究内容`;
    text += `${title}\n`;
    while (text.length - start < perChapter) {
      let para = '';
      while (para.length < 280) para += sentence;
      text += `${para}。\n`;
    }
    sections.push({
      index: c,
      title,
      kind: 'body',
      start,
      end: text.length,
      chars: text.length - start,
      copiedChars: 0,
      quotedChars: 0,
      ratio: 0.2,
      ratioExcludingQuotes: 0.15,
      matchCount: marks / chapters,
    });
  }
  const kinds = ['verbatim', 'paraphrase', 'quoted'] as const;
  const step = Math.floor(text.length / marks);
  const matches = Array.from({ length: marks }, (_, i) => {
    const start = i * step + 3;
    const end = start + 30 + (i % 40);
    return {
      index: i,
      start,
      end,
      kind: kinds[i % 3]!,
      chars: end - start,
      section: Math.min(chapters - 1, Math.floor(start / perChapter)),
      sourceNo: (i % 20) + 1,
      sourcePassage: { before: '前文', text: `来源${i}的相似段落`, after: '后文' },
    };
  });
  const sources = Array.from({ length: 20 }, (_, i) => ({
    no: i + 1,
    id: `s${i}`,
    title: `相似文献${i + 1}`,
    authors: ['作者'],
    year: 2020,
    source: '期刊',
    copiedChars: 100,
    ratio: 0.01,
    share: 0.05,
    matchCount: marks / 20,
  }));
  return {
    version: 1,
    orderId: '00000000-0000-4000-8000-000000000080',
    orderNo: 'KY20260301000000000080',
    reportNo: 'BG20260301PERF2345',
    verificationCode: 'ABCD2345',
    verifyUrl: 'http://127.0.0.1/check/verify?reportNo=BG20260301PERF2345&code=ABCD2345',
    title: '八万字论文',
    author: '张三',
    goodsName: '硕博学位论文查重',
    fileName: 'big.docx',
    checkedAt: '2026-03-01T02:00:00.000Z',
    figures: {
      ratio: 0.2,
      ratioExcludingQuotes: 0.15,
      maxSingleSourceRatio: 0.01,
      maxSingleSourceTitle: '相似文献1',
      copiedChars: 16_000,
      totalChars: text.length,
      verbatimChars: 6000,
      paraphraseChars: 6000,
      quotedChars: 4000,
      referenceChars: 0,
      sourceCount: 20,
    },
    sections,
    sources,
    matches,
    text,
    notes: [
      '本报告为程序自动比对的结果，仅供参考，不作为学术不端的最终认定依据；最终结论以学校或期刊的审查为准。',
    ],
  };
}
