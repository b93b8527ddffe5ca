import { CheckCircleFilled } from '@ant-design/icons';
import { authTexts } from '../texts';

/** The free services promised for binding a phone or WeChat (spec §1). */
export function FreeBenefits() {
  return (
    <ul className="free-benefits">
      {authTexts.freeBenefits.map((benefit) => (
        <li key={benefit}>
          <CheckCircleFilled /> {benefit}
        </li>
      ))}
    </ul>
  );
}
