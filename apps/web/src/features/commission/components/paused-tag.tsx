import type { CommissionService } from '@kyfw/contracts';
import { Tag } from 'antd';
import { useIsServicePaused } from '../api/service-states';
import { commissionTexts as T } from '../texts';

/** 暂停受理 on a service's card while its goods are unlisted (下架); nothing otherwise. */
export function PausedTag({ service }: { service: CommissionService }) {
  if (!useIsServicePaused(service)) return null;
  return (
    <Tag color="default" className="commission-paused-tag" data-testid="commission-paused-tag">
      {T.paused.tag}
    </Tag>
  );
}
