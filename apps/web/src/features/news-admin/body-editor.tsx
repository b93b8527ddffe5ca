import { Button, Input, Space, Tooltip } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { toast } from '../../stores/ui-store';
import { uploadNewsImage } from './news-admin-api';
import { newsAdminTexts as t } from './texts';

type Command = { label: string; run: () => void };

/**
 * The article body: a visual editor (contentEditable with a small toolbar) or its HTML source.
 * Whatever is typed or pasted, the server keeps only its allow-list when the article is saved.
 */
export function BodyEditor({ value = '', onChange }: { value?: string; onChange?: (html: string) => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const range = useRef<Range | null>(null);
  const [source, setSource] = useState(false);
  const [uploading, setUploading] = useState(false);

  // Written into the editable element only when it differs (typing must not move the caret), and
  // again when it comes back from the HTML view (a new element).
  // biome-ignore lint/correctness/useExhaustiveDependencies: `source` remounts the element
  useEffect(() => {
    const el = ref.current;
    if (el && el.innerHTML !== value) el.innerHTML = value;
  }, [value, source]);

  const emit = () => onChange?.(ref.current?.innerHTML ?? '');
  const keepSelection = () => {
    const selection = window.getSelection();
    if (selection && selection.rangeCount > 0 && ref.current?.contains(selection.anchorNode)) {
      range.current = selection.getRangeAt(0);
    }
  };
  const exec = (command: string, arg?: string) => {
    ref.current?.focus();
    if (range.current) {
      const selection = window.getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range.current);
    }
    document.execCommand(command, false, arg);
    emit();
  };

  const commands: Command[] = [
    { label: t.toolbar.h2, run: () => exec('formatBlock', 'h2') },
    { label: t.toolbar.h3, run: () => exec('formatBlock', 'h3') },
    { label: t.toolbar.bold, run: () => exec('bold') },
    { label: t.toolbar.italic, run: () => exec('italic') },
    { label: t.toolbar.ul, run: () => exec('insertUnorderedList') },
    { label: t.toolbar.ol, run: () => exec('insertOrderedList') },
    { label: t.toolbar.quote, run: () => exec('formatBlock', 'blockquote') },
    {
      label: t.toolbar.link,
      run: () => {
        const href = window.prompt(t.linkPrompt);
        if (href) exec('createLink', href);
      },
    },
    { label: t.toolbar.image, run: () => fileRef.current?.click() },
    { label: t.toolbar.clear, run: () => exec('removeFormat') },
  ];

  async function insertImage(file: File) {
    setUploading(true);
    try {
      const image = await uploadNewsImage(file);
      exec('insertHTML', `<img src="${image.src}" alt="" />`);
    } catch {
      // The request layer has shown the server's message.
    } finally {
      setUploading(false);
      if (fileRef.current) fileRef.current.value = '';
    }
  }

  return (
    <div className="news-editor">
      <Space wrap size={4} className="news-editor__toolbar">
        {!source
          ? commands.map((c) => (
              <Button
                key={c.label}
                size="small"
                loading={c.label === t.toolbar.image && uploading}
                onMouseDown={(e) => {
                  e.preventDefault();
                  keepSelection();
                }}
                onClick={c.run}
              >
                {c.label}
              </Button>
            ))
          : null}
        <Tooltip title={source ? t.toolbar.visual : t.toolbar.source}>
          <Button size="small" type="dashed" onClick={() => setSource((s) => !s)}>
            {source ? t.toolbar.visual : t.toolbar.source}
          </Button>
        </Tooltip>
      </Space>
      {source ? (
        <Input.TextArea
          aria-label={t.fields.body}
          value={value}
          onChange={(e) => onChange?.(e.target.value)}
          autoSize={{ minRows: 14, maxRows: 30 }}
          className="news-editor__source"
        />
      ) : (
        // biome-ignore lint/a11y/useSemanticElements: rich text needs an editable element, not a textarea
        <div
          ref={ref}
          role="textbox"
          aria-multiline="true"
          aria-label={t.fields.body}
          tabIndex={0}
          contentEditable
          suppressContentEditableWarning
          className="news-editor__area news-article__body"
          onInput={emit}
          onBlur={() => {
            keepSelection();
            emit();
          }}
          onKeyUp={keepSelection}
          onMouseUp={keepSelection}
        />
      )}
      <input
        ref={fileRef}
        type="file"
        accept="image/png,image/jpeg,image/webp"
        style={{ display: 'none' }}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) void insertImage(file);
          else toast.error(t.photos.imageRequired);
        }}
      />
    </div>
  );
}
