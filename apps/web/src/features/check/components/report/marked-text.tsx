import type { MouseEvent } from 'react';
import { memo, useCallback } from 'react';
import type { Chunk, MarkedText } from '../../lib/segments';
import { checkTexts as t } from '../../texts';

/** Rough rendered height of a chunk before it was laid out (content-visibility placeholder). */
function estimateHeight(chunk: Chunk): number {
  const lines = chunk.paragraphs.reduce((n, p) => n + Math.max(1, Math.ceil((p.end - p.start) / 44)), 0);
  return Math.round(lines * 28 + chunk.paragraphs.length * 10);
}

interface ChunkProps {
  chunk: Chunk;
  text: string;
  /** The active match if it has a run in this chunk, else -1 (keeps the other chunks memoised). */
  active: number;
  /** This chunk starts its section (anchor for 定位到正文). */
  sectionAnchor: number | null;
}

const MarkedChunk = memo(function MarkedChunk({ chunk, text, active, sectionAnchor }: ChunkProps) {
  return (
    <div
      className="rt-chunk"
      data-chunk={chunk.index}
      data-section={sectionAnchor ?? undefined}
      style={{ containIntrinsicSize: `auto ${estimateHeight(chunk)}px` }}
    >
      {chunk.paragraphs.map((p) => {
        const body = p.segments.map((s) =>
          s.match < 0 ? (
            text.slice(s.start, s.end)
          ) : (
            <mark
              key={s.start}
              className={`rt-mark rt-mark--${s.kind}${s.match === active ? ' is-active' : ''}`}
              data-m={s.match}
            >
              {text.slice(s.start, s.end)}
            </mark>
          ),
        );
        return p.heading ? (
          <h4 key={p.start} className="rt-heading">
            {body}
          </h4>
        ) : (
          <p key={p.start} className="rt-p">
            {body}
          </p>
        );
      })}
    </div>
  );
});

export interface MarkedTextViewProps {
  marked: MarkedText;
  text: string;
  active: number | null;
  onSelect: (match: number) => void;
}

/**
 * The full text with its marks: chunks of paragraphs with `content-visibility: auto` (the browser
 * lays out only what is near the screen), one element per marked run, one click handler for all.
 */
export function MarkedTextView({ marked, text, active, onSelect }: MarkedTextViewProps) {
  const pick = useCallback(
    (target: EventTarget | null) => {
      const el = (target as HTMLElement | null)?.closest?.('[data-m]');
      if (!el) return false;
      const index = Number(el.getAttribute('data-m'));
      if (Number.isInteger(index)) onSelect(index);
      return true;
    },
    [onSelect],
  );
  const onClick = (event: MouseEvent) => {
    pick(event.target);
  };
  const sectionStarts = new Map<number, number>();
  for (const [section, chunk] of marked.chunkOfSection) {
    if (!sectionStarts.has(chunk)) sectionStarts.set(chunk, section);
  }
  if (marked.chunks.length === 0) return <p className="muted">{t.noMatches}</p>;
  return (
    // Marks are reached by keyboard through the panel's 上一处 / 下一处 and the source list.
    // biome-ignore lint/a11y/noStaticElementInteractions: one delegated click handler for all marks
    // biome-ignore lint/a11y/useKeyWithClickEvents: see above
    <div className="rt-text" onClick={onClick}>
      {marked.chunks.map((chunk) => (
        <MarkedChunk
          key={chunk.index}
          chunk={chunk}
          text={text}
          active={active !== null && chunk.matches.includes(active) ? active : -1}
          sectionAnchor={sectionStarts.get(chunk.index) ?? null}
        />
      ))}
    </div>
  );
}
