/** The industry news feature (/industryNews): the list, one article and its texts. */
export { isArticleNotFound, useArticle } from './api/get-article';
export { LatestNews } from './components/latest-news';
export { NewsArticle } from './components/news-article';
export { NewsList } from './components/news-list';
export { newsTexts } from './texts';
