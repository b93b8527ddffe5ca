/** The empty state of the account area's lists (same drawing as the user pages' EmptyState). */
export function Empty({ text }: { text: string }) {
  return (
    <div className="empty-state">
      <svg width="72" height="56" viewBox="0 0 72 56" aria-hidden="true">
        <rect x="8" y="10" width="56" height="40" rx="6" fill="#eef3fa" stroke="#c9d8ec" />
        <path d="M18 24h36M18 32h24" stroke="#c9d8ec" strokeWidth="3" strokeLinecap="round" />
      </svg>
      <p>{text}</p>
    </div>
  );
}
