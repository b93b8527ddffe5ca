import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** The text of a PDF as a reader's copy-paste gives it (pdfjs-dist), pages joined by newlines. */
export async function pdfText(bytes: Uint8Array): Promise<{ text: string; pages: number }> {
  const doc = await getDocument({
    data: new Uint8Array(bytes),
    useSystemFonts: false,
    isEvalSupported: false,
  }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const content = await page.getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(''));
  }
  await doc.destroy();
  return { text: pages.join('\n'), pages: doc.numPages };
}
