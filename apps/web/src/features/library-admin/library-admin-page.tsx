import {
  formatDate,
  LIBRARY_IMPORT_COLLECTIONS,
  LIBRARY_IMPORT_RULES,
  type LibraryCollection,
  type LibraryDocument,
  type LibraryImport,
  staffCan,
} from '@kyfw/contracts';
import {
  Alert,
  Button,
  Card,
  Form,
  Input,
  Popconfirm,
  Progress,
  Select,
  Space,
  Table,
  Tabs,
  Tag,
  Upload,
} from 'antd';
import { useState } from 'react';
import { toast } from '../../stores/ui-store';
import { useStaff } from '../console';
import {
  type LibrarySearch,
  useLibraryImports,
  useLibrarySearch,
  useLibraryStats,
  useRemoveDocument,
  useStartImport,
} from './library-admin-api';
import { libraryAdminTexts as T } from './texts';

const when = (iso: string | null) => (iso ? formatDate(iso, 'YYYY-MM-DD HH:mm') : T.never);

/** 馆藏统计: documents, characters and the newest addition per collection; the check goods on sale. */
function StatsCard() {
  const stats = useLibraryStats();
  const rows = stats.data?.collections ?? [];
  return (
    <Card title={T.statsTitle} size="small" data-testid="library-stats">
      <Table
        rowKey="collection"
        size="small"
        pagination={false}
        loading={stats.isPending}
        dataSource={rows}
        columns={[
          { key: 'name', title: T.statsColumns.name, dataIndex: 'name' },
          {
            key: 'documents',
            title: T.statsColumns.documents,
            align: 'right',
            render: (_v, c) => T.count(c.documents),
          },
          { key: 'chars', title: T.statsColumns.chars, align: 'right', render: (_v, c) => T.count(c.chars) },
          { key: 'last', title: T.statsColumns.lastAddedAt, render: (_v, c) => when(c.lastAddedAt) },
        ]}
        summary={() =>
          stats.data ? (
            <Table.Summary.Row>
              <Table.Summary.Cell index={0}>{T.total}</Table.Summary.Cell>
              <Table.Summary.Cell index={1} align="right">
                {T.count(stats.data.documents)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={2} align="right">
                {T.count(stats.data.chars)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={3} />
            </Table.Summary.Row>
          ) : null
        }
      />
      {stats.data && (
        <div className="library-admin__goods">
          <strong>{T.goodsTitle}：</strong>
          {stats.data.goods.map((g) => (
            <span key={g.goodsId} className="library-admin__good" title={g.reason ?? undefined}>
              {g.name} <Tag color={g.onSale ? 'green' : 'orange'}>{g.onSale ? T.onSale : T.offSale}</Tag>
            </span>
          ))}
        </div>
      )}
    </Card>
  );
}

function statusTag(i: LibraryImport) {
  const color = { queued: 'default', running: 'processing', succeeded: 'success', failed: 'error' }[i.status];
  return <Tag color={color}>{T.statuses[i.status]}</Tag>;
}

/** 导入文档 (admin) and 导入记录 with each import's progress (polled while one runs). */
function ImportCard({ canWrite }: { canWrite: boolean }) {
  const imports = useLibraryImports();
  const start = useStartImport();
  const [collection, setCollection] = useState<string>('journal');
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);

  const pick = (f: File) => {
    const name = f.name.toLowerCase();
    if (!LIBRARY_IMPORT_RULES.extensions.some((ext) => name.endsWith(ext)))
      setFileError(T.rules.badExtension);
    else if (f.size > LIBRARY_IMPORT_RULES.maxBytes) setFileError(T.rules.tooLarge);
    else setFileError(null);
    setFile(f);
    return false;
  };

  return (
    <Card title={T.importTitle} size="small">
      {canWrite && (
        <Form layout="inline" className="library-admin__import" onFinish={() => undefined}>
          <Form.Item label={T.collectionLabel}>
            <Select
              aria-label={T.collectionLabel}
              value={collection}
              onChange={setCollection}
              style={{ width: 160 }}
              options={LIBRARY_IMPORT_COLLECTIONS.map((c) => ({ value: c, label: T.collections[c] }))}
            />
          </Form.Item>
          <Form.Item
            label={T.fileLabel}
            validateStatus={fileError ? 'error' : undefined}
            help={fileError ?? undefined}
          >
            <Upload
              accept=".jsonl,.gz,.zip"
              maxCount={1}
              beforeUpload={pick}
              onRemove={() => {
                setFile(null);
                setFileError(null);
              }}
              fileList={file ? [{ uid: '1', name: file.name, status: 'done' }] : []}
            >
              <Button>{T.pickFile}</Button>
            </Upload>
          </Form.Item>
          <Form.Item>
            <Button
              type="primary"
              disabled={!file || fileError !== null}
              loading={start.isPending}
              onClick={() => {
                if (!file) return;
                start.mutate(
                  { collection, file },
                  {
                    onSuccess: () => {
                      toast.success(T.started);
                      setFile(null);
                    },
                  },
                );
              }}
            >
              {T.start}
            </Button>
          </Form.Item>
        </Form>
      )}
      {canWrite && <p className="library-admin__help">{T.importHelp}</p>}
      <h4 className="library-admin__subtitle">{T.importsTitle}</h4>
      <Table<LibraryImport>
        rowKey="importId"
        size="small"
        data-testid="library-imports"
        loading={imports.isPending}
        dataSource={imports.data?.list ?? []}
        pagination={false}
        columns={[
          { key: 'file', title: T.importColumns.file, dataIndex: 'fileName', ellipsis: true },
          {
            key: 'collection',
            title: T.importColumns.collection,
            width: 120,
            render: (_v, i) => T.collections[i.collection],
          },
          { key: 'status', title: T.importColumns.status, width: 90, render: (_v, i) => statusTag(i) },
          {
            key: 'progress',
            title: T.importColumns.progress,
            width: 220,
            render: (_v, i) =>
              i.status === 'failed' ? null : (
                <div>
                  <Progress
                    percent={i.progress}
                    size="small"
                    status={i.status === 'running' ? 'active' : undefined}
                  />
                  {i.progressText && <div className="library-admin__progress-text">{i.progressText}</div>}
                </div>
              ),
          },
          {
            key: 'result',
            title: T.importColumns.result,
            render: (_v, i) =>
              i.error ? (
                <span className="library-admin__error">{i.error}</span>
              ) : i.summary ? (
                T.summary(i.summary)
              ) : null,
          },
          { key: 'who', title: T.importColumns.who, width: 100, dataIndex: 'username' },
          { key: 'at', title: T.importColumns.at, width: 140, render: (_v, i) => when(i.createdAt) },
        ]}
      />
    </Card>
  );
}

/** 检索文档 / 用户授权论文: a search of the catalogue; admin may remove a document. */
function DocumentsTable({ canWrite, collection }: { canWrite: boolean; collection?: LibraryCollection }) {
  const [text, setText] = useState('');
  const [picked, setPicked] = useState<LibraryCollection | undefined>(collection);
  const [page, setPage] = useState(1);
  const query: LibrarySearch = { text, collection: collection ?? picked, page, pageSize: 20 };
  const found = useLibrarySearch(query);
  const remove = useRemoveDocument();
  return (
    <div>
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          aria-label={T.searchPlaceholder}
          placeholder={T.searchPlaceholder}
          style={{ width: 280 }}
          onSearch={(v) => {
            setText(v.trim());
            setPage(1);
          }}
        />
        {!collection && (
          <Select<LibraryCollection | 'all'>
            aria-label={T.docColumns.collection}
            value={picked ?? 'all'}
            style={{ width: 160 }}
            onChange={(v) => {
              setPicked(v === 'all' ? undefined : v);
              setPage(1);
            }}
            options={[
              { value: 'all', label: T.allCollections },
              ...(Object.keys(T.collections) as LibraryCollection[]).map((c) => ({
                value: c,
                label: T.collections[c],
              })),
            ]}
          />
        )}
      </Space>
      <Table<LibraryDocument>
        rowKey="id"
        size="small"
        loading={found.isPending}
        dataSource={found.data?.list ?? []}
        pagination={{
          current: page,
          pageSize: 20,
          total: found.data?.total ?? 0,
          onChange: setPage,
          showTotal: T.totalOf,
        }}
        columns={[
          { key: 'title', title: T.docColumns.title, render: (_v, d) => d.title ?? <em>{T.untitled}</em> },
          {
            key: 'authors',
            title: T.docColumns.authors,
            width: 140,
            render: (_v, d) => d.authors.join('、'),
          },
          { key: 'source', title: T.docColumns.source, width: 140, render: (_v, d) => d.source ?? '—' },
          { key: 'year', title: T.docColumns.year, width: 70, render: (_v, d) => d.year ?? '—' },
          {
            key: 'collection',
            title: T.docColumns.collection,
            width: 120,
            render: (_v, d) => T.collections[d.collection],
          },
          {
            key: 'chars',
            title: T.docColumns.chars,
            width: 90,
            align: 'right',
            render: (_v, d) => T.count(d.chars),
          },
          { key: 'added', title: T.docColumns.addedAt, width: 140, render: (_v, d) => when(d.addedAt) },
          { key: 'id', title: T.docColumns.id, width: 180, ellipsis: true, dataIndex: 'id' },
          ...(canWrite
            ? [
                {
                  key: 'action',
                  title: T.docColumns.action,
                  width: 70,
                  render: (_v: unknown, d: LibraryDocument) => (
                    <Popconfirm
                      title={T.removeConfirm}
                      okText={T.remove}
                      okButtonProps={{ danger: true }}
                      onConfirm={() =>
                        remove.mutateAsync(d.id).then(() => {
                          toast.success(T.removed);
                        })
                      }
                    >
                      <Button size="small" danger loading={remove.isPending && remove.variables === d.id}>
                        {T.remove}
                      </Button>
                    </Popconfirm>
                  ),
                },
              ]
            : []),
        ]}
      />
    </div>
  );
}

/**
 * /admin/library: the comparison library (admin; support reads). The server checks the role of
 * every call and writes the audit log.
 */
export function LibraryAdminPage() {
  const staff = useStaff();
  const canWrite = staffCan(staff.data?.role, 'library.write');
  return (
    <div className="console-page library-admin">
      <h2>{T.title}</h2>
      <Alert type="info" showIcon message={T.intro} style={{ marginBottom: 16 }} />
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <StatsCard />
        <ImportCard canWrite={canWrite} />
        <Card title={T.searchTitle} size="small">
          <Tabs
            items={[
              { key: 'all', label: T.docsTab, children: <DocumentsTable canWrite={canWrite} /> },
              {
                key: 'user',
                label: T.userTab,
                children: (
                  <>
                    <p className="library-admin__help">{T.userHelp}</p>
                    <DocumentsTable canWrite={canWrite} collection="user" />
                  </>
                ),
              },
            ]}
          />
        </Card>
      </Space>
    </div>
  );
}
