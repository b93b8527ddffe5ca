import { createRequire } from 'node:module';
import { fenToYuan, formatCurrency, toChineseCapital } from '@kyfw/contracts';
import PDFDocument from 'pdfkit';
import { formatFenAsYuan } from '../../../providers/payment/index.ts';

/**
 * Renders an invoice PDF with pdfkit and Noto Sans SC (SIL Open Font License 1.1, from the npm
 * package @expo-google-fonts/noto-sans-sc; pdfkit embeds only the glyphs used, so a PDF is a few
 * tens of KiB). The amount appears in figures and in Chinese capitals (toChineseCapital).
 */

const require = createRequire(import.meta.url);
const FONT_PATH = require.resolve('@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf');
const FONT_BOLD_PATH = require.resolve('@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf');

export interface InvoicePdfInput {
  invoiceNo: string;
  issuedAt: Date;
  titleType: 'personal' | 'company';
  title: string;
  taxpayerId: string | null;
  email: string | null;
  items: { orderNo: string; name: string; quantity: number; unit: string; amountFen: number }[];
  amountFen: number;
  seller: { name: string; taxpayerId: string | null };
  /** Sandbox invoices carry a notice that they are samples, not tax documents. */
  isSample: boolean;
}

function chinaDate(date: Date): string {
  const d = new Date(date.getTime() + 8 * 3_600_000);
  return `${d.getUTCFullYear()}年${String(d.getUTCMonth() + 1).padStart(2, '0')}月${String(d.getUTCDate()).padStart(2, '0')}日`;
}

export function renderInvoicePdf(input: InvoicePdfInput): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: `电子发票 ${input.invoiceNo}`, Author: input.seller.name, Producer: 'kyfw' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('regular', FONT_PATH);
  doc.registerFont('bold', FONT_BOLD_PATH);

  const left = 50;
  const width = doc.page.width - 100;
  doc.font('bold').fontSize(20).text('电子发票（普通发票）', left, 50, { width, align: 'center' });
  if (input.isSample) {
    doc
      .moveDown(0.3)
      .font('regular')
      .fontSize(10)
      .fillColor('#c0392b')
      .text('沙箱示例：本票据仅用于演示，不是税务发票', { width, align: 'center' })
      .fillColor('black');
  }
  doc.moveDown(1).font('regular').fontSize(10);
  doc.text(`发票号码：${input.invoiceNo}`, left, doc.y, { continued: false });
  doc.text(`开票日期：${chinaDate(input.issuedAt)}`);
  doc.moveDown(0.8);

  doc.font('bold').fontSize(11).text('购买方信息');
  doc.font('regular').fontSize(10);
  doc.text(`名称：${input.title}`);
  doc.text(`抬头类型：${input.titleType === 'company' ? '企业单位' : '个人'}`);
  doc.text(`纳税人识别号：${input.taxpayerId ?? '—'}`);
  doc.moveDown(0.6);
  doc.font('bold').fontSize(11).text('销售方信息');
  doc.font('regular').fontSize(10);
  doc.text(`名称：${input.seller.name}`);
  doc.text(`纳税人识别号：${input.seller.taxpayerId ?? '—'}`);
  doc.moveDown(0.8);

  // Items table: 项目名称 | 订单号 | 数量 | 金额
  const columns = [
    { title: '项目名称', x: left, w: 190 },
    { title: '订单号', x: left + 190, w: 170 },
    { title: '数量', x: left + 360, w: 60 },
    { title: '金额（元）', x: left + 420, w: width - 420 },
  ];
  let y = doc.y;
  doc.font('bold');
  for (const c of columns) doc.text(c.title, c.x, y, { width: c.w });
  y = doc.y + 4;
  doc
    .moveTo(left, y)
    .lineTo(left + width, y)
    .stroke();
  doc.font('regular');
  for (const item of input.items) {
    y += 6;
    const cells = [
      `*信息技术服务*${item.name}`,
      item.orderNo,
      `${item.quantity}${item.unit === '千字' ? '字' : item.unit}`,
      formatFenAsYuan(item.amountFen),
    ];
    let rowBottom = y;
    cells.forEach((text, i) => {
      const c = columns[i]!;
      doc.text(text, c.x, y, { width: c.w });
      rowBottom = Math.max(rowBottom, doc.y);
    });
    y = rowBottom;
  }
  y += 6;
  doc
    .moveTo(left, y)
    .lineTo(left + width, y)
    .stroke();
  doc.y = y + 10;
  doc.x = left;

  const yuan = fenToYuan(input.amountFen);
  doc.font('bold').fontSize(11);
  doc.text(`价税合计（大写）：${toChineseCapital(yuan)}`, left, doc.y, { width });
  doc.text(`价税合计（小写）：${formatCurrency(yuan)}`, left, doc.y, { width });
  doc.moveDown(1).font('regular').fontSize(9).fillColor('#555555');
  if (input.email) doc.text(`接收邮箱：${input.email}`);
  doc.text('本发票由系统根据已支付订单生成；如有疑问请联系客服。');
  doc.end();
  return done;
}
