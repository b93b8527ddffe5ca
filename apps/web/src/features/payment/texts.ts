/** User-visible texts of the payment dialog. */
export const paymentTexts = {
  title: '订单支付',
  goods: '商品',
  orderNo: '订单号',
  amountDue: '应付金额',
  method: '支付方式',
  methods: { wx: '微信支付', ali: '支付宝', offline: '线下转账' },
  scanHint: { wx: '请使用微信扫一扫完成支付', ali: '请使用支付宝扫一扫完成支付' },
  qrAlt: { wx: '微信支付二维码', ali: '支付宝支付二维码' },
  qrLoading: '正在生成支付二维码…',
  qrDrawFailed: '二维码绘制失败，请重试',
  retry: '重新获取',
  remaining: '剩余支付时间',
  waiting: '等待支付中，支付完成后页面将自动更新',
  checking: '正在确认支付结果…',
  paid: '支付成功',
  paidDetail: '订单已支付，正在为你处理。',
  done: '完成',
  expired: '订单已过期，请重新下单',
  cancelled: '订单已取消，请重新下单',
  refunded: '订单已退款',
  qrExpired: '二维码已失效',
  closeHint: '关闭后订单将保留，可在“我的订单”中继续支付',
  close: '关闭',
  sandboxTag: '沙箱',
  sandboxLink: '在新窗口打开模拟支付页',
  sandboxHint: '当前为测试环境，不会产生真实扣款。',
  offline: {
    intro: '请通过网银或柜台向以下账户转账，并上传转账凭证；工作人员确认到账后订单自动变为已支付。',
    bankName: '开户银行',
    accountName: '账户名称',
    accountNo: '银行账号',
    amount: '转账金额',
    remark: '转账附言',
    remarkValue: (orderNo: string) => `订单号 ${orderNo}`,
    copy: '复制',
    copied: '已复制',
    upload: '上传转账凭证',
    uploading: '正在上传…',
    uploadHint: (types: string, maxMb: string) => `支持 ${types}，不超过 ${maxMb}`,
    uploaded: '转账凭证已提交',
    pending: '转账凭证已提交，正在等待工作人员确认到账（通常1个工作日内）。确认后订单将自动变为已支付。',
    badType: '请上传图片（PNG、JPG、WebP）或 PDF 格式的转账凭证',
    tooLarge: (maxMb: string) => `凭证文件不能超过 ${maxMb}`,
    disabled: '暂不支持线下转账，请使用微信或支付宝支付',
    loading: '正在加载转账信息…',
  },
} as const;

/** "01:59:08" / "09:08" for a remaining time in milliseconds (rounded up to the second). */
export function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return hours > 0 ? `${pad(hours)}:${pad(minutes)}:${pad(seconds)}` : `${pad(minutes)}:${pad(seconds)}`;
}

/** "5 MB" / "512 KB" for a byte limit. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
