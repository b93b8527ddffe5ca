import { Spin } from 'antd';
import { useUiStore } from '../../stores/ui-store';

/** The global loading overlay (spec §2): full screen, with a text (default 提交中). */
export function LoadingOverlay() {
  const loading = useUiStore((s) => s.loading);
  const content = useUiStore((s) => s.loadingContent);
  if (!loading) return null;
  return <Spin fullscreen spinning description={content} size="large" />;
}
