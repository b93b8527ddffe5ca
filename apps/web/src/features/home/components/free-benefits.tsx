import { CheckCircleFilled, ClockCircleOutlined } from '@ant-design/icons';
import { useHomeInfo } from '../api/get-home-info';
import { homeTexts } from '../texts';

/**
 * What registration gives, as the server says (/home/homeInfo `benefits`): a benefit whose service
 * does not exist yet is marked 即将开放, never promised as usable.
 */
export function FreeBenefits() {
  const { data } = useHomeInfo();
  const benefits = data?.benefits ?? [];
  if (benefits.length === 0) return null;
  return (
    <ul className="free-benefits" aria-label={homeTexts.benefitsLabel}>
      {benefits.map((b) => (
        <li key={b.kind} className={b.available ? undefined : 'is-soon'}>
          {b.available ? <CheckCircleFilled /> : <ClockCircleOutlined />}{' '}
          {homeTexts.benefitKinds[b.kind] ?? b.kind}
          <span className="free-benefits__state">
            {b.available ? homeTexts.benefitAvailable : homeTexts.benefitSoon}
          </span>
        </li>
      ))}
    </ul>
  );
}
