/** The console's 比对库 page (/admin/library), in a chunk of its own. */
import './library-admin.css';

export { LibraryAdminPage } from './library-admin-page';
