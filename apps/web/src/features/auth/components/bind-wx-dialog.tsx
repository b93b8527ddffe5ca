import { BaseModal } from '../../../components/ui/base-modal';
import { uiActions, useUiStore } from '../../../stores/ui-store';
import { authTexts } from '../texts';
import { BindWxPanel } from './bind-wx-panel';

/** 绑定微信 dialog (spec §2); the QR flow lives in BindWxPanel. */
export default function BindWxDialog() {
  const open = useUiStore((s) => s.bindWxModal);
  return (
    <BaseModal
      open={open}
      onClose={uiActions.closeBindWxModal}
      title={authTexts.bindWxTitle}
      variant="dialog"
      width={440}
    >
      <div className="bind-dialog">
        <p className="bind-dialog__intro">{authTexts.bindWxIntro}</p>
        <BindWxPanel active={open} onSuccess={uiActions.closeBindWxModal} />
      </div>
    </BaseModal>
  );
}
