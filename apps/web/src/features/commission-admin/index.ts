/** The console's 委托办理 page (/admin/commission), apart from the public commission feature's index. */
export { CommissionConsolePage } from './commission-console-page';
