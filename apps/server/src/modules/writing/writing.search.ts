import { type Source, termsOf } from './references.ts';
import type { WritingRuntime } from './writing.service.ts';

const CJK = /[\u3400-\u9fff]/;
/** How much of a record's abstract a draft keeps for the model to cite from. */
const ABSTRACT_CHARS = 200;

export interface LibrarySearch {
  keyword: string;
  /** Records of this 学科 come first. */
  discipline?: string;
  yearFrom?: number;
  yearTo?: number;
  limit: number;
  /** Only English records (titles without Chinese characters): /searchEnReference. */
  english?: boolean;
  /** The student's own references (a writing's supplied sources), searched too and listed first. */
  supplied?: readonly Source[];
}

export type FoundSource = Omit<Source, 'n'> & { discipline: string | null };

/**
 * The student's supplied references and the library's records whose title, keywords or abstract
 * hold the query's words (ranked title first, then keywords, then abstract:
 * Catalog.searchRecords), in the year range; the supplied ones first, then the library's records
 * of the given 学科, then the others. `total` counts every match (of the library's best 200), the
 * list keeps `limit`.
 */
export async function searchLibrary(
  rt: Pick<WritingRuntime, 'library'>,
  search: LibrarySearch,
): Promise<{ list: FoundSource[]; total: number }> {
  const terms = termsOf(search.keyword);
  const wanted = terms.length > 0 ? terms : [search.keyword.trim()];
  const inYears = (year: number | null) =>
    (search.yearFrom === undefined || (year ?? 0) >= search.yearFrom) &&
    (search.yearTo === undefined || (year ?? 9999) <= search.yearTo);
  const fitsLanguage = (title: string) => !search.english || !CJK.test(title);

  const lower = wanted.map((t) => t.toLowerCase());
  const supplied: FoundSource[] = (search.supplied ?? [])
    .filter((s) => s.origin === 'supplied' && inYears(s.year) && fitsLanguage(s.title))
    .filter((s) => lower.some((t) => s.title.toLowerCase().includes(t)))
    .map(({ n: _n, ...s }) => ({ ...s, discipline: null }));

  const entries = rt.library ? await rt.library.searchRecords(wanted, 200) : [];
  const matching = entries.filter((e) => inYears(e.year) && fitsLanguage(e.title ?? ''));
  const discipline = search.discipline?.trim() ?? '';
  const sameField = (d: string | null) =>
    discipline !== '' && d !== null && (d.includes(discipline) || discipline.includes(d));
  // Stable: the catalogue's order (best matched, newest) within each group.
  const ordered = [
    ...matching.filter((e) => sameField(e.discipline)),
    ...matching.filter((e) => !sameField(e.discipline)),
  ];
  const library: FoundSource[] = ordered.map((e) => ({
    title: e.title!,
    authors: e.authors,
    year: e.year,
    source: e.source,
    discipline: e.discipline,
    type: 'J',
    origin: 'library' as const,
    abstract: e.abstract ? e.abstract.replace(/\s+/g, ' ').trim().slice(0, ABSTRACT_CHARS) : null,
    keywords: e.keywords.slice(0, 8),
  }));
  return { total: supplied.length + matching.length, list: [...supplied, ...library].slice(0, search.limit) };
}
