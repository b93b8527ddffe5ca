import type { ReactNode } from 'react';

/** The frame of a user-area page: title, short description, content. */
export function UserPanel({
  title,
  description,
  extra,
  children,
}: {
  title: string;
  description?: string;
  extra?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="user-panel card-surface">
      <header className="user-panel__head">
        <div>
          <h1>{title}</h1>
          {description && <p>{description}</p>}
        </div>
        {extra}
      </header>
      <div className="user-panel__body">{children}</div>
    </div>
  );
}

export function EmptyState({ text }: { text: string }) {
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
