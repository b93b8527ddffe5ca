import { WRITING_LIMITS } from '@kyfw/contracts';
import { Alert, Button, Input, Select } from 'antd';
import { useEffect, useState } from 'react';
import { setUnsavedInput } from '../../../stores/unsaved-store';
import { PaymentDialog } from '../../payment';
import { WRITING_PAY_ENDPOINTS } from '../api/keys';
import { useOrderUnlimitedRevisions, useReviseSection } from '../api/revise';
import { useWriting } from '../api/writing-steps';
import { writingTexts as T } from '../texts';
import type { OutlineItem, WritingView } from '../types';

/**
 * The outline's leaves (the sections that have text of their own) as '1.2 name'; a chapter without
 * sub-sections (the conclusion, usually) is a leaf too and reads '第5章 name'.
 */
function sectionsOf(items: readonly OutlineItem[], prefix = ''): { path: string; label: string }[] {
  return items.flatMap((item, i) => {
    const path = prefix ? `${prefix}.${i + 1}` : String(i + 1);
    if (item.children && item.children.length > 0) return sectionsOf(item.children, path);
    return [{ path, label: prefix ? `${path} ${item.name}` : T.chapterLabel(path, item.name) }];
  });
}

/**
 * Revising one section of a finished draft (/aiWriting/updateOrder): free revisions left, the
 * revision under way (polled), and the unlimited-revisions add-on once the free ones are used.
 */
export function ReviseSection({ w }: { w: WritingView }) {
  const sections = sectionsOf(w.outline ?? []);
  const [path, setPath] = useState<string | undefined>(sections[0]?.path);
  const [instruction, setInstruction] = useState('');
  const [payOrderId, setPayOrderId] = useState<string | null>(null);
  const revise = useReviseSection();
  const addOn = useOrderUnlimitedRevisions();
  const refresh = useWriting(w.writingId);
  const running = w.revision?.state === 'running';
  const usedUp = w.revisionsLeft === 0;
  // A typed revision request not yet sent is unsaved input: leaving asks first (spec §2).
  useEffect(() => setUnsavedInput(instruction.trim() !== ''), [instruction]);
  useEffect(() => () => setUnsavedInput(false), []);

  const buy = () =>
    addOn.mutate(w.writingId, {
      onSuccess: (order) => setPayOrderId(order.orderId),
    });

  return (
    <section className="card-surface wr__card" data-testid="writing-revise">
      <h3 className="wr__h">{T.reviseTitle}</h3>
      <p className="muted">{T.reviseHint}</p>
      <p className="muted" data-testid="writing-revisions-left">
        {T.revisionsLeft(w.revisionsLeft)}
      </p>
      {running && (
        <Alert
          type="info"
          showIcon
          data-testid="writing-revision-running"
          message={
            // Waiting for a worker: 排队中 and its place, as every queued job says.
            w.revision!.queueAhead != null && w.revision!.message
              ? T.revisionQueued(w.revision!.path, w.revision!.message)
              : T.revising(w.revision!.path)
          }
        />
      )}
      {w.revision?.state === 'failed' && w.revision.message && (
        <Alert type="error" showIcon message={w.revision.message} />
      )}
      <div className="wr__revise">
        <Select
          aria-label={T.reviseSection}
          placeholder={T.reviseSection}
          value={path}
          onChange={setPath}
          options={sections.map((s) => ({ value: s.path, label: s.label }))}
          // Every section in the page, the last chapter too (a virtual list renders only what is in view).
          virtual={false}
          style={{ minWidth: 240 }}
        />
        <Input.TextArea
          aria-label={T.reviseInstruction}
          placeholder={T.reviseInstructionPlaceholder}
          value={instruction}
          maxLength={WRITING_LIMITS.revisionInstruction}
          autoSize={{ minRows: 2, maxRows: 5 }}
          onChange={(e) => setInstruction(e.target.value)}
        />
      </div>
      <Button
        type="primary"
        disabled={!path || running || usedUp}
        loading={revise.isPending}
        onClick={() =>
          path &&
          revise.mutate(
            { writingId: w.writingId, path, instruction },
            { onSuccess: () => setInstruction('') },
          )
        }
      >
        {T.reviseSubmit}
      </Button>{' '}
      {usedUp && (
        <Button loading={addOn.isPending} onClick={buy}>
          {T.buyUnlimited}
        </Button>
      )}
      <PaymentDialog
        open={payOrderId !== null}
        orderId={payOrderId}
        title={T.unlimitedTitle}
        goodsName={`${T.unlimitedTitle} · ${w.title}`}
        onClose={() => setPayOrderId(null)}
        onPaid={() => void refresh.refetch()}
        {...WRITING_PAY_ENDPOINTS}
      />
    </section>
  );
}
