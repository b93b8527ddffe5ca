import {
  AccountSection,
  DataSection,
  EntitlementsSection,
  infoTexts,
  ProfileForm,
  useSession,
} from '../../../features/auth';
import { UserPanel } from './user-panel';

/** /user/info: bindings, personal data, free services, data export and account deletion. */
export default function UserInfoPage() {
  const user = useSession((s) => s.userInfo);
  return (
    <UserPanel title={infoTexts.title} description={infoTexts.description}>
      {user && (
        <>
          <section className="info-section" aria-label={infoTexts.accountSection}>
            <h2 className="info-section__title">{infoTexts.accountSection}</h2>
            <AccountSection user={user} />
          </section>
          <section className="info-section" aria-label={infoTexts.entitlementsSection}>
            <h2 className="info-section__title">{infoTexts.entitlementsSection}</h2>
            <EntitlementsSection user={user} />
          </section>
          <section className="info-section" aria-label={infoTexts.profileSection}>
            <h2 className="info-section__title">{infoTexts.profileSection}</h2>
            <ProfileForm user={user} />
          </section>
          <section className="info-section" aria-label={infoTexts.dataSection}>
            <h2 className="info-section__title">{infoTexts.dataSection}</h2>
            <DataSection />
          </section>
        </>
      )}
    </UserPanel>
  );
}
