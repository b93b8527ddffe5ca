/** The operator console's public API: the /admin route renders ConsoleApp. */
import './console.css';

export { ConsoleApp } from './components/console-app';
export { consoleTexts } from './texts';
