/** The logo mark: an open book with a check mark, in the theme's blue. */
export function BrandMark({ size = 36 }: { size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 48 48"
      aria-hidden="true"
      focusable="false"
      className="brand-mark"
    >
      <rect width="48" height="48" rx="12" fill="#1d4f91" />
      <path d="M10 15.5c4.6-1.6 9.3-1.2 14 1.6v18.4c-4.7-2.8-9.4-3.2-14-1.6z" fill="#fff" opacity="0.95" />
      <path d="M38 15.5c-4.6-1.6-9.3-1.2-14 1.6v18.4c4.7-2.8 9.4-3.2 14-1.6z" fill="#cfe0f5" />
      <path
        d="m27.5 25.5 3 3 6-7"
        fill="none"
        stroke="#e0a526"
        strokeWidth="2.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
