import { CheckCircleFilled, LoadingOutlined, ReloadOutlined, WechatOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import type { ReactNode } from 'react';
import { toast } from '../../../stores/ui-store';
import { useSimulateWechatScan } from '../api/dev-sandbox';
import type { QrPollingState } from '../hooks/use-qr-polling';
import { getSandboxOpenId, renewSandboxOpenId } from '../lib/sandbox-open-id';
import { authTexts } from '../texts';
import type { QrCode } from '../types';
import { SandboxNotice } from './sandbox-notice';
import '../auth.css';

/** The platform's QR image for a ticket (spec §3), when the server gives no image URL. */
export function qrImageUrl(qr: QrCode): string {
  return qr.qrUrl || `https://mp.weixin.qq.com/cgi-bin/showqrcode?ticket=${encodeURIComponent(qr.ticket)}`;
}

export interface QrBoxProps extends QrPollingState {
  refresh: () => void;
  pollNow: () => void;
  /** Overlay text once the poll said done. */
  doneText: string;
  /** Allow 换一个测试微信 in the sandbox notice (login and binding; not for deletion). */
  allowNewSandboxUser?: boolean;
  /** What to do, shown under the QR (above the sandbox notice). */
  children?: ReactNode;
}

/**
 * The QR frame of the WeChat flows: the image, a loading/failed/done overlay, a refresh action,
 * and in sandbox mode the 沙箱 notice with 模拟扫码.
 */
export function QrBox({
  status,
  qr,
  message,
  refresh,
  pollNow,
  doneText,
  allowNewSandboxUser = true,
  children,
}: QrBoxProps) {
  const simulateScan = useSimulateWechatScan();
  const scanning = simulateScan.isPending;
  const scan = () => {
    if (!qr) return;
    simulateScan.mutate({ ticket: qr.ticket, openId: getSandboxOpenId() }, { onSuccess: () => pollNow() });
  };
  return (
    <div className="qr-box">
      <div className="qr-box__frame">
        {qr && status !== 'error' && (
          <img
            className="qr-box__image"
            src={qrImageUrl(qr)}
            alt={authTexts.qrAlt}
            width={180}
            height={180}
          />
        )}
        {status === 'loading' && (
          <div className="qr-box__overlay">
            <LoadingOutlined />
            <span>{authTexts.qrLoading}</span>
          </div>
        )}
        {status === 'error' && (
          <div className="qr-box__overlay qr-box__overlay--plain">
            <WechatOutlined className="qr-box__wx" />
            <span>{message ?? authTexts.qrFailed}</span>
            <Button size="small" icon={<ReloadOutlined />} onClick={refresh}>
              {authTexts.qrRefresh}
            </Button>
          </div>
        )}
        {status === 'stopped' && (
          <div className="qr-box__overlay">
            <span>{message ?? authTexts.qrStopped}</span>
          </div>
        )}
        {status === 'done' && (
          <div className="qr-box__overlay qr-box__overlay--done">
            <CheckCircleFilled />
            <span>{doneText}</span>
          </div>
        )}
      </div>
      {status === 'ready' && (
        <button type="button" className="link-button qr-box__refresh" onClick={refresh}>
          <ReloadOutlined /> {authTexts.qrRefresh}
        </button>
      )}
      {children}
      {qr?.sandbox && status === 'ready' && (
        <SandboxNotice className="qr-box__sandbox">
          <p>{authTexts.sandboxWxText}</p>
          <div className="sandbox-notice__actions">
            <Button type="primary" size="small" loading={scanning} onClick={scan}>
              {authTexts.sandboxScan}
            </Button>
            {allowNewSandboxUser && (
              <button
                type="button"
                className="link-button"
                onClick={() => {
                  renewSandboxOpenId();
                  toast.info(authTexts.sandboxNewWxDone);
                }}
              >
                {authTexts.sandboxNewWx}
              </button>
            )}
          </div>
        </SandboxNotice>
      )}
    </div>
  );
}
