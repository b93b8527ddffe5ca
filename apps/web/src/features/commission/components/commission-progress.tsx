import type { CommissionDetail } from '@kyfw/contracts';
import { useDownloadCommissionFile } from '../api/download-file';
import { commissionTexts as T } from '../texts';
import { CommissionFiles } from './commission-files';
import { CommissionTimeline } from './commission-timeline';

/** A commission's progress, its delivered reports (下载) and its attachments. */
export function CommissionProgress({ commission: c }: { commission: CommissionDetail }) {
  const download = useDownloadCommissionFile();
  const busyId = download.isPending ? download.variables?.fileId : undefined;
  const save = (f: { fileId: string; fileName: string }) =>
    download.mutate({ commissionId: c.commissionId, fileId: f.fileId, fileName: f.fileName });
  return (
    <>
      <h3>{T.timeline}</h3>
      <CommissionTimeline commission={c} vertical />
      <h3>{T.reports}</h3>
      <CommissionFiles files={c.reports} primary emptyText={T.noReport} busyId={busyId} onDownload={save} />
      {c.files.length > 0 && (
        <>
          <h3>{T.attachments}</h3>
          <CommissionFiles files={c.files} emptyText="" busyId={busyId} onDownload={save} />
        </>
      )}
    </>
  );
}
