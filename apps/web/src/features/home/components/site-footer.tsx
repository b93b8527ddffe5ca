import { EnvironmentOutlined, PhoneOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { shellTexts } from '../../../app/texts';
import { BrandMark } from '../../../components/layout/brand-mark';
import { paths } from '../../../config/paths';
import { services } from '../../../config/services';
import { TermsLinks } from '../../legal';
import { useHomeInfo } from '../api/get-home-info';

const BEIAN_URL = 'https://beian.miit.gov.cn/';

const serviceLinks = [
  services.check,
  services.reduction,
  services['reduction-aigc'],
  services.ai,
  services.searchReport,
  services.technologySearch,
] as const;

/** The public footer from /home/homeInfo (spec §1): operator, contact, QR, ICP record, copyright, friend links. */
export function SiteFooter() {
  const { data } = useHomeInfo();
  const info = data?.webInfo ?? null;
  const friendLinks = data?.friendLinkList ?? [];
  const t = shellTexts.footer;
  return (
    <footer className="site-footer">
      <div className="container site-footer__grid">
        <div className="site-footer__brand">
          <div className="site-footer__logo">
            <BrandMark size={32} />
            <strong data-testid="footer-name">{info?.name || shellTexts.siteName}</strong>
          </div>
          <p>{shellTexts.siteSlogan}</p>
        </div>
        <nav className="site-footer__col" aria-label={t.services}>
          <h2 className="site-footer__title">{t.services}</h2>
          {serviceLinks.map((s) => (
            <Link key={s.route} to={paths[s.route]}>
              {s.name}
            </Link>
          ))}
        </nav>
        <div className="site-footer__col">
          <h2 className="site-footer__title">{t.company}</h2>
          <Link to={paths.aboutUs}>{t.aboutUs}</Link>
          <Link to={paths.industryNews}>{services.industryNews.name}</Link>
          <TermsLinks separator="" className="site-footer__terms" />
        </div>
        <div className="site-footer__col site-footer__contact">
          <h2 className="site-footer__title">{t.contact}</h2>
          {info?.contactPhone && (
            <p>
              <PhoneOutlined /> {t.phone}：
              <a href={`tel:${info.contactPhone.replace(/[^\d+]/g, '')}`}>{info.contactPhone}</a>
            </p>
          )}
          {info?.companyAddress && (
            <p>
              <EnvironmentOutlined /> {t.address}：{info.companyAddress}
            </p>
          )}
        </div>
        {info?.qrCode && (
          <div className="site-footer__qr">
            <img src={info.qrCode} alt={t.qrCode} width={96} height={96} loading="lazy" />
            <span>{t.qrCode}</span>
          </div>
        )}
      </div>
      {friendLinks.length > 0 && (
        <div className="container site-footer__friends">
          <span>{t.friendLinks}：</span>
          {friendLinks.map((link) => (
            <a key={link.url} href={link.url} target="_blank" rel="noopener noreferrer">
              {link.name}
            </a>
          ))}
        </div>
      )}
      <div className="site-footer__bottom">
        <div className="container">
          {info?.copyright && <span>{info.copyright}</span>}
          {info?.recordNumber && (
            <a href={BEIAN_URL} target="_blank" rel="noopener noreferrer">
              {info.recordNumber}
            </a>
          )}
        </div>
      </div>
    </footer>
  );
}
