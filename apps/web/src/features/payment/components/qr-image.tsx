import { LoadingOutlined } from '@ant-design/icons';
import { useEffect, useState } from 'react';
import { paymentTexts } from '../texts';

export interface QrImageProps {
  /** The text to encode, exactly as the provider gave it. */
  value: string;
  alt: string;
  /** CSS pixels; default 200. */
  size?: number;
}

/**
 * Draws a QR code locally (never sent to a third-party image service) with the `qrcode` package,
 * loaded on first use so pages without payment do not carry it. Rendered as an SVG image: sharp at
 * any zoom and printable.
 */
export function QrImage({ value, alt, size = 200 }: QrImageProps) {
  const [drawn, setDrawn] = useState<{ value: string; src: string } | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    setFailed(false);
    import('qrcode')
      .then((qrcode) => qrcode.toString(value, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }))
      .then((svg) => {
        if (!cancelled)
          setDrawn({ value, src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` });
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
    };
  }, [value]);

  if (failed) {
    return (
      <div className="pay-qr__placeholder" style={{ width: size, height: size }} role="alert">
        {paymentTexts.qrDrawFailed}
      </div>
    );
  }
  if (drawn?.value !== value) {
    return (
      <div className="pay-qr__placeholder" style={{ width: size, height: size }} aria-busy="true">
        <LoadingOutlined />
      </div>
    );
  }
  return (
    <img className="pay-qr__image" src={drawn.src} alt={alt} width={size} height={size} data-code={value} />
  );
}
