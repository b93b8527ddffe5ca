import { BaseModal } from '../../../components/ui/base-modal';
import { privacyPolicy } from '../content/privacy-policy';
import type { LegalDocument } from '../content/types';
import { userAgreement } from '../content/user-agreement';

export type LegalDocumentKey = 'terms' | 'privacy';

const documents: Record<LegalDocumentKey, LegalDocument> = { terms: userAgreement, privacy: privacyPolicy };

function LegalDocumentView({ doc }: { doc: LegalDocument }) {
  return (
    <article className="legal-doc">
      <p className="legal-doc__date">更新时间：{doc.updatedAt}</p>
      {doc.intro.map((p) => (
        <p key={p}>{p}</p>
      ))}
      {doc.sections.map((section) => (
        <section key={section.heading}>
          <h3>{section.heading}</h3>
          {section.paragraphs.map((p) => (
            <p key={p}>{p}</p>
          ))}
        </section>
      ))}
    </article>
  );
}

/** The full text of the terms or the privacy policy in a modal (its own chunk: the texts are long). */
export default function LegalDocumentModal({
  docKey,
  onClose,
}: {
  docKey: LegalDocumentKey | null;
  onClose: () => void;
}) {
  const doc = docKey ? documents[docKey] : null;
  return (
    <BaseModal
      open={doc !== null}
      onClose={onClose}
      title={doc ? `《${doc.title}》` : undefined}
      width={760}
      variant="dialog"
      showCloseButton
      closeButtonText="我已阅读"
    >
      {doc && <LegalDocumentView doc={doc} />}
    </BaseModal>
  );
}
