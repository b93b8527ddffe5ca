/** The home feature's public API: the landing texts, the site footer and the site's home info. */
export { homeInfoQueryOptions, useHomeInfo } from './api/get-home-info';
export { FreeBenefits } from './components/free-benefits';
export { SiteFooter } from './components/site-footer';
export { homeTexts } from './texts';
