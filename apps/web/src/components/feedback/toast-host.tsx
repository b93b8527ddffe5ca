import { TOAST_DURATION_MS } from '@kyfw/contracts';
import { message } from 'antd';
import { useEffect, useRef } from 'react';
import { markMessageShown, useUiStore } from '../../stores/ui-store';

/**
 * Renders the pending toasts of the UI store (msgMap) with antd's message: stacked, icon by type,
 * 3 s each from the moment it appears. The store owns the list (anything — the request layer
 * included — adds to it); this host mirrors it on screen and tells the store when each appeared, so
 * a toast queued before the host mounted is not cut short.
 */
export function ToastHost() {
  const [api, holder] = message.useMessage({
    top: 72,
    duration: TOAST_DURATION_MS / 1000,
    maxCount: 5,
    pauseOnHover: false,
  });
  const msgMap = useUiStore((s) => s.msgMap);
  const shown = useRef(new Set<string>());

  useEffect(() => {
    for (const msg of Object.values(msgMap)) {
      if (shown.current.has(msg.id)) continue;
      shown.current.add(msg.id);
      markMessageShown(msg.id);
      void api.open({
        key: msg.id,
        type: msg.type,
        content: msg.content,
        duration: TOAST_DURATION_MS / 1000,
      });
    }
    for (const id of shown.current) {
      if (!(id in msgMap)) {
        api.destroy(id);
        shown.current.delete(id);
      }
    }
  }, [msgMap, api]);

  return holder;
}
