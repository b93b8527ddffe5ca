/** User-visible texts of the accounts feature. Spec messages come from @kyfw/contracts MESSAGES. */
export const authTexts = {
  loginDialogTitle: '欢迎来到科研服务网',
  loginDialogSubtitle: '登录后可提交订单、查看报告与管理个人信息',
  tabWx: '微信登录',
  tabAccount: '账号密码登录',
  register: '注册账号',
  forgotPassword: '忘记密码？',
  noAccount: '还没有账号？',
  agreementPrefix: '登录即表示您已阅读并同意',
  and: '和',

  // WeChat QR (login, binding, deletion)
  wxScanTitle: '微信扫码登录',
  wxScanText: '打开微信“扫一扫”，关注公众号后自动登录；首次扫码将自动为您创建账号。',
  wxBindText: '请使用要绑定的微信“扫一扫”，关注公众号后自动完成绑定。',
  qrAlt: '微信扫码二维码',
  qrLoading: '二维码加载中…',
  qrFailed: '二维码获取失败',
  qrRefresh: '刷新二维码',
  qrScanned: '扫码成功，正在登录…',
  qrBound: '绑定成功',
  qrStopped: '已停止',

  // Sandbox (development providers)
  sandboxTag: '沙箱',
  sandboxWxText: '当前为沙箱环境，未连接真实微信。点击“模拟扫码”即可模拟用本浏览器的测试微信扫码。',
  sandboxScan: '模拟扫码',
  sandboxNewWx: '换一个测试微信',
  sandboxNewWxDone: '已切换为新的测试微信',
  sandboxSms: (phone: string) => `短信未真实发送，发往 ${phone} 的验证码：`,
  sandboxFill: '填入',
  captchaLabel: '图形验证码',
  captchaPlaceholder: '请输入图中字符',
  captchaHint: '本网络获取验证码较多，请先输入图中的字符（不区分大小写），再点击获取验证码',
  captchaRefresh: '看不清？点击换一张',
  captchaAlt: '图形验证码，点击换一张',

  // Forms
  phoneLabel: '手机号',
  phonePlaceholder: '请输入手机号码',
  passwordLabel: '密码',
  passwordPlaceholder: '请输入密码（6-50位）',
  newPasswordLabel: '新密码',
  newPasswordPlaceholder: '请输入新密码（6-50位）',
  confirmPasswordLabel: '确认密码',
  confirmPasswordPlaceholder: '请再次输入密码',
  confirmPasswordRequired: '请再次输入密码',
  passwordMismatch: '两次输入的密码不一致',
  oldPasswordLabel: '原密码',
  oldPasswordPlaceholder: '请输入当前使用的密码',
  codeLabel: '短信验证码',
  codePlaceholder: '6位数字验证码',
  sendCode: '获取验证码',
  resendIn: (seconds: number) => `${seconds}秒后重新获取`,
  termsAccept: '我已阅读并接受',
  loginSubmit: '登录',
  loggingIn: '登录中…',
  userInfoFailed: '登录状态获取失败，请稍后重试',

  // Register / forgot password
  registerSubmit: '注册并登录',
  registerWelcome: '注册成功，欢迎使用！',
  loggedOut: '已退出登录',
  forgotSubmit: '重置密码',
  resetDone: '密码重置成功，请使用新密码登录',

  // Bind phone
  bindPhoneTitle: '绑定手机号',
  bindPhoneIntro: '绑定手机号后，可使用手机号 + 密码登录，也可通过短信验证码找回密码。',
  bindPasswordLabel: '登录密码（选填）',
  bindPasswordPlaceholder: '不填写则不设置密码，可继续用微信扫码登录',
  bindPasswordHelp: '6-50位。也可以稍后通过"忘记密码"用短信验证码设置。',
  majorLabel: '专业',
  majorPlaceholder: '请选择专业',
  educationLabel: '学历',
  educationPlaceholder: '请选择学历',
  bindAgreement: '我已阅读并同意',
  bindSubmit: '确认绑定',

  // Bind WeChat
  bindWxTitle: '绑定微信',
  bindWxIntro: '绑定微信后，可直接用微信扫码登录同一账号。',
  alreadyHasWx: '当前账号已绑定微信',

  // Pages
  loginPageTitle: '登录',
  loginPageSubtitle: '登录科研服务网，管理你的查重、降重与写作订单',
  registerPageTitle: '注册账号',
  registerPageSubtitle: '使用手机号注册，注册即送以下权益（每个手机号仅限一次）：',
  forgotPageTitle: '找回密码',
  forgotPageSubtitle: '通过手机短信验证码重新设置登录密码',
  haveAccount: '已有账号？',
  goLogin: '去登录',
  backHome: '返回首页',
  menu: {
    orders: '我的订单',
    paymentRecords: '支付记录',
    info: '个人信息',
    password: '修改密码',
    address: '收货地址',
    logout: '退出登录',
    invoice: '发票管理',
  },
  weChatUser: '微信用户',
  bound: '已绑定',
  notBound: '未绑定',
  phone: '手机号',
  wechat: '微信',
  bind: '绑定',
} as const;

/** Texts of the personal-info page (/user/info). */
export const infoTexts = {
  title: '个人信息',
  description: '查看账号与绑定情况，完善个人资料。',
  accountSection: '账号与绑定',
  accountId: '账号 ID',
  createdAt: '注册时间',
  passwordSet: '登录密码',
  passwordYes: '已设置',
  passwordNo: '未设置',
  setPasswordHint: '可通过“忘记密码”设置',
  profileSection: '个人资料',
  realName: '真实姓名',
  realNamePlaceholder: '请输入真实姓名',
  unitName: '单位名称',
  unitNamePlaceholder: '学校或工作单位',
  gender: '性别',
  male: '男',
  female: '女',
  genderUnset: '不填写',
  major: '专业',
  education: '学历',
  selectPlaceholder: '请选择',
  realNameTooLong: '姓名不能超过50个字',
  unitNameTooLong: '单位名称不能超过100个字',
  save: '保存资料',
  saved: '保存成功',
  reset: '撤销修改',
  entitlementsSection: '免费权益',
  entitlementsEmpty: '本账号暂无免费权益。',
  entitlementsNote:
    '权益在注册（手机号注册或微信扫码）时获得，每个手机号、每个微信仅限一次；标“即将开放”的服务上线后即可使用。',
  entitlementsEarnedBefore:
    '您的手机号或微信此前已在其他账号（已注销或关闭）领取过免费权益。免费权益每个手机号、每个微信仅限一次，本账号不再赠送。',
  entitlementKinds: {
    free_check: '一次免费查重',
    free_aigc_detection: '一次免费AIGC检测',
    ai_writing_trial: 'AI写作体验',
  } as Record<string, string>,
  grantedBy: {
    phone_bind: '绑定手机号获得',
    wechat_bind: '绑定微信获得',
    phone_register: '手机号注册获得',
    wechat_register: '微信注册获得',
  } as Record<string, string>,
  available: '可使用',
  comingSoon: '即将开放',
  used: '已使用',
  usedAt: (date: string) => `已于 ${date} 使用`,
  dataSection: '数据与账号',
  exportTitle: '导出我的数据',
  exportText: '下载账号资料、登录记录、订单等个人数据（JSON 文件）。',
  exportButton: '导出我的数据',
  exportDone: '数据已开始下载',
  deleteTitle: '注销账号',
  deleteText: '注销后账号无法恢复，个人资料将被删除。',
  deleteButton: '注销账号',
} as const;

/** Texts of the account-deletion dialog. */
export const deleteTexts = {
  title: '注销账号',
  warningTitle: '注销后无法恢复，请谨慎操作',
  erased:
    '将被删除：手机号、微信绑定、登录密码、真实姓名、单位、性别、专业、学历，以及未使用的免费权益、登录记录与验证码记录；所有设备上的登录立即失效。',
  kept: '依法保留：订单、支付与发票记录将按法律法规要求保存，保存时已去除可识别您身份的信息，不再与您的手机号或微信关联。',
  free: '注销后，该手机号和微信可重新注册新账号；如已领取过注册赠送的免费权益，新账号不会再次获得。为此我们仅保留手机号和微信标识经密钥单向加密后的摘要，无法还原出手机号或微信，也不与任何其他信息关联。',
  understand: '我已了解上述内容，确认注销',
  understandFirst: '勾选上方确认后显示二维码。',
  bySms: (phone: string) => `向绑定的手机号 ${phone} 发送验证码以确认注销：`,
  byWx: '请使用当前账号绑定的微信扫描二维码确认注销：',
  byPassword: '输入当前账号的登录密码以确认注销（无需短信验证码）：',
  passwordLabel: '登录密码',
  passwordRequired: '请输入登录密码',
  usePassword: '收不到验证码？改用登录密码确认',
  useSms: '改用短信验证码确认',
  submit: '确认注销',
  cancel: '取消',
  done: '账号已注销',
} as const;

/** Texts of the change-password page (/user/password). */
export const passwordTexts = {
  title: '修改密码',
  description: '输入原密码与新密码即可修改；修改后其他设备上的登录将失效。',
  submit: '确认修改',
  done: '密码修改成功，请牢记新密码',
  successNote: '密码已修改。其他设备上的登录已失效，下次登录请使用新密码。',
  noPhone: '你的账号尚未绑定手机号，暂不能设置密码。绑定手机号后即可使用手机号 + 密码登录。',
  noPassword: '你的账号绑定手机号时没有设置密码，请通过“忘记密码”用短信验证码设置密码。',
  goForgot: '去设置密码',
  sameAsOld: '新密码不能与原密码相同',
} as const;

/** Options of the bind-phone and profile selects (stored as text). */
export const EDUCATION_OPTIONS = ['专科', '本科', '硕士研究生', '博士研究生', '博士后', '其他'] as const;

export const MAJOR_GROUPS: readonly { label: string; options: readonly string[] }[] = [
  {
    label: '工学',
    options: [
      '计算机科学与技术',
      '软件工程',
      '人工智能',
      '数据科学与大数据技术',
      '电子信息工程',
      '通信工程',
      '自动化',
      '电气工程及其自动化',
      '机械设计制造及其自动化',
      '土木工程',
      '建筑学',
      '化学工程与工艺',
      '材料科学与工程',
      '环境工程',
    ],
  },
  {
    label: '理学',
    options: ['数学与应用数学', '物理学', '化学', '生物科学', '地理科学', '心理学', '统计学'],
  },
  {
    label: '经济学 · 管理学',
    options: [
      '经济学',
      '金融学',
      '国际经济与贸易',
      '工商管理',
      '会计学',
      '市场营销',
      '公共管理',
      '信息管理与信息系统',
    ],
  },
  { label: '医学', options: ['临床医学', '护理学', '药学', '中医学', '口腔医学', '公共卫生与预防医学'] },
  {
    label: '文学 · 法学 · 教育学',
    options: ['汉语言文学', '英语', '新闻传播学', '法学', '社会学', '教育学', '学前教育', '体育教育'],
  },
  { label: '其他', options: ['农学', '历史学', '哲学', '艺术学', '其他'] },
];

/** 138****8000 */
export function maskPhone(phone: string): string {
  return phone.length === 11 ? `${phone.slice(0, 3)}****${phone.slice(7)}` : phone;
}
