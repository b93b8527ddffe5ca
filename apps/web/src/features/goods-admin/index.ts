/** The console's goods and prices and site info pages (/admin/goods, /admin/site). */
export { GoodsPage } from './goods-page';
export { SitePage } from './site-page';
