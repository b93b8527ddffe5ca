export interface LegalSection {
  heading: string;
  paragraphs: readonly string[];
}

export interface LegalDocument {
  title: string;
  /** Version date shown at the top (spec §1: 2025-05-28 09:52:01). */
  updatedAt: string;
  intro: readonly string[];
  sections: readonly LegalSection[];
}

export const LEGAL_UPDATED_AT = '2025-05-28 09:52:01';
