/** The console's news desk (/admin/news), apart from the public news feature's index. */
export { NewsAdminPage } from './news-admin-page';
