import { formatDate } from '@kyfw/contracts';

/** '2026-03-02 10:00' in local time; '—' for null or an unreadable value. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  try {
    return formatDate(value, 'YYYY-MM-DD HH:mm');
  } catch {
    return '—';
  }
}

export const DEFAULT_PAGE_SIZE = 10;
