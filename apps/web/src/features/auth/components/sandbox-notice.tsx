import { ExperimentOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import { authTexts } from '../texts';
import '../auth.css';

/**
 * A clearly marked 沙箱 notice: shown only with the sandbox providers (fake SMS / WeChat), so a
 * person trying the product on a fresh machine can finish every flow.
 */
export function SandboxNotice({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div className={className ? `sandbox-notice ${className}` : 'sandbox-notice'} role="note">
      <span className="sandbox-notice__tag">
        <ExperimentOutlined /> {authTexts.sandboxTag}
      </span>
      <div className="sandbox-notice__body">{children}</div>
    </div>
  );
}
