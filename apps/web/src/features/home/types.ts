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

/** A benefit every account gets at registration; `available` false: its service opens later. */
export interface Benefit {
  kind: string;
  available: boolean;
}

export interface HomeInfo {
  webInfo: WebInfo | null;
  friendLinkList: FriendLink[];
  benefits: Benefit[];
}
