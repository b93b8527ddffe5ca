import { CloseOutlined } from '@ant-design/icons';
import { Button, Modal } from 'antd';
import type { ReactNode } from 'react';
import { shellTexts } from '../../app/texts';

export interface BaseModalProps {
  open: boolean;
  onClose: () => void;
  title?: ReactNode;
  children?: ReactNode;
  /** 'dialog' sits at 10% from the top, the base modal at 15% (spec §2). */
  variant?: 'base' | 'dialog';
  /** Shows a 关闭 button in the footer besides the close icon. */
  showCloseButton?: boolean;
  closeButtonText?: ReactNode;
  /** Custom footer; overrides the close button. */
  footer?: ReactNode;
  width?: number | string;
  className?: string;
  /** Keep the content mounted while hidden (default: unmount on close). */
  keepMounted?: boolean;
  afterClose?: () => void;
}

/** The generic modal: close icon, optional close button, top offset by variant. */
export function BaseModal({
  open,
  onClose,
  title,
  children,
  variant = 'base',
  showCloseButton = false,
  closeButtonText = shellTexts.close,
  footer,
  width = 520,
  className,
  keepMounted = false,
  afterClose,
}: BaseModalProps) {
  const resolvedFooter =
    footer ?? (showCloseButton ? <Button onClick={onClose}>{closeButtonText}</Button> : null);
  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={title}
      footer={resolvedFooter}
      width={width}
      style={{ top: variant === 'dialog' ? '10%' : '15%' }}
      closeIcon={<CloseOutlined aria-label={shellTexts.close} />}
      className={className}
      destroyOnHidden={!keepMounted}
      afterClose={afterClose}
      maskClosable={false}
    >
      {children}
    </Modal>
  );
}
