import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildSampleDocx } from './docx.ts';
import { buildSamplePdf } from './pdf-samples.ts';
import { buildGb18030Txt, buildUtf8BomTxt, buildUtf8Txt } from './txt.ts';

// Writes the generated sample fixtures to a folder, for looking at them or converting them with
// LibreOffice (see make-office-fixtures.sh). Usage: npx node write-fixtures.ts <dir>
const dir = resolve(process.argv[2] ?? 'fixtures-out');
mkdirSync(dir, { recursive: true });
const files: Record<string, Uint8Array> = {
  'thesis.docx': buildSampleDocx(),
  'thesis.pdf': buildSamplePdf(),
  'thesis-utf8.txt': buildUtf8Txt(),
  'thesis-utf8-bom.txt': buildUtf8BomTxt(),
  'thesis-gb18030.txt': buildGb18030Txt(),
};
for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
console.log(`wrote ${Object.keys(files).length} files to ${dir}`);
