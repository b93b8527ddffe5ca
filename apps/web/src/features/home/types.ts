/** Operator data for the footer (spec §3 home info). */
export interface WebInfo {
  name: string;
  contactPhone: string;
  companyAddress: string;
  /** URL of the QR code image (e.g. the official account). */
  qrCode: string;
  /** ICP record number, linked to beian.miit.gov.cn. */
  recordNumber: string;
  copyright: string;
}

export interface FriendLink {
  id?: string | number;
  name: string;
  url: string;
}

export interface HomeInfo {
  webInfo: WebInfo | null;
  friendLinkList: FriendLink[];
}
