import { BaseModal } from '../../../components/ui/base-modal';
import { uiActions, useUiStore } from '../../../stores/ui-store';
import { authTexts } from '../texts';
import { BindPhonePanel } from './bind-phone-panel';

/** 绑定手机号 dialog (spec §2); the form lives in BindPhonePanel. */
export default function BindPhoneDialog() {
  const open = useUiStore((s) => s.bindPhoneModal);
  return (
    <BaseModal
      open={open}
      onClose={uiActions.closeBindPhoneModal}
      title={authTexts.bindPhoneTitle}
      variant="dialog"
      width={480}
    >
      <div className="bind-dialog">
        <p className="bind-dialog__intro">{authTexts.bindPhoneIntro}</p>
        <BindPhonePanel onSuccess={uiActions.closeBindPhoneModal} />
      </div>
    </BaseModal>
  );
}
