/** The industry news feature (/industryNews): the list, one article, covers, case photos, texts. */
export { isArticleNotFound, useArticle } from './api/get-article';
export { CasePhotos } from './components/case-photos';
export { LatestNews } from './components/latest-news';
export { NewsArticle } from './components/news-article';
export { NewsCover } from './components/news-cover';
export { NewsList } from './components/news-list';
export { newsTexts } from './texts';
