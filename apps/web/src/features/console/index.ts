/**
 * The operator console's public API: the /admin route renders ConsoleApp; console pages of other
 * features (registered in pages.ts) use the helpers below.
 */
import './console.css';

export { consoleKeys, consolePost, useStaff } from './api/console-api';
export { ConsoleApp } from './components/console-app';
export { downloadCsv, type TableRange, TableTools } from './components/table-tools';
export { consoleTexts, serviceTexts } from './texts';
