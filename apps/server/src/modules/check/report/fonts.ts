import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The CJK font of the PDF reports: Noto Sans SC (SIL Open Font License 1.1) from the npm package
 * @expo-google-fonts/noto-sans-sc, shared with the orders module's invoices. pdfkit embeds only the
 * glyphs a document uses (a subset), so a report stays small.
 */
const require = createRequire(import.meta.url);
const packageDir = path.dirname(require.resolve('@expo-google-fonts/noto-sans-sc/package.json'));

export const FONT_FILES = {
  regular: path.join(packageDir, '400Regular', 'NotoSansSC_400Regular.ttf'),
  bold: path.join(packageDir, '700Bold', 'NotoSansSC_700Bold.ttf'),
} as const;

let cache: { regular: Buffer; bold: Buffer } | undefined;

/** The font files' bytes, read once per thread. */
export function loadFonts(): { regular: Buffer; bold: Buffer } {
  cache ??= { regular: readFileSync(FONT_FILES.regular), bold: readFileSync(FONT_FILES.bold) };
  return cache;
}
