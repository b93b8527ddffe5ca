/** The legal feature's public API: the links that open 用户协议 and 隐私政策. */
export { TermsLinks } from './components/terms-links';
