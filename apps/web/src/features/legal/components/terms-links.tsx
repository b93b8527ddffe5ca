import { lazy, Suspense, useState } from 'react';
import type { LegalDocumentKey } from './legal-document-modal';

const LegalDocumentModal = lazy(() => import('./legal-document-modal'));

/**
 * The terms/privacy viewer (spec §2): two links, 《用户服务条款》 and 《隐私政策》, each opening a
 * modal with the full text. The texts load on first click.
 */
export function TermsLinks({ separator = '和', className }: { separator?: string; className?: string }) {
  const [open, setOpen] = useState<LegalDocumentKey | null>(null);
  const [mounted, setMounted] = useState(false);
  const show = (key: LegalDocumentKey) => {
    setMounted(true);
    setOpen(key);
  };
  return (
    <span className={className}>
      <button type="button" className="link-button" onClick={() => show('terms')}>
        《用户服务条款》
      </button>
      {separator}
      <button type="button" className="link-button" onClick={() => show('privacy')}>
        《隐私政策》
      </button>
      {mounted && (
        <Suspense fallback={null}>
          <LegalDocumentModal docKey={open} onClose={() => setOpen(null)} />
        </Suspense>
      )}
    </span>
  );
}
