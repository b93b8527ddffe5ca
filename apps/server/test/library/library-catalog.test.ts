import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDb, type DbHandle, migrate } from '@kyfw/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog, CatalogEntry } from '../../src/modules/check/library/catalog.ts';
import { createPgCatalog } from '../../src/modules/check/library/library.repo.ts';
import { openLocalCatalog } from '../../src/modules/check/library/local-catalog.ts';

// The console's search of the library (catalog.find: the exact id, or words of the title or an
// author; one collection or all; newest first; a page and the total) and its statistics (the newest
// addition per collection) give the same answers from both catalogues: the local JSON lines of the
// embedded mode and the PostgreSQL table (here on PGlite, migrated).

const tmp = mkdtempSync(path.join(os.tmpdir(), 'kyfw-library-catalog-'));
let handle: DbHandle;
beforeAll(async () => {
  handle = await createDb({ memory: true });
  await migrate(handle.db);
});
afterAll(async () => {
  await handle.close();
  rmSync(tmp, { recursive: true, force: true });
});

function entry(id: string, fields: Partial<CatalogEntry>): CatalogEntry {
  return {
    id,
    title: null,
    authors: [],
    year: null,
    source: null,
    discipline: null,
    abstract: null,
    keywords: [],
    collection: 'journal',
    contentHash: createHash('sha256').update(id).digest('hex'),
    chars: 100,
    origin: 'import',
    addedAt: '2026-01-01T00:00:00.000Z',
    ...fields,
  };
}

const ENTRIES = [
  entry('j:1', { title: '城市交通拥堵治理', authors: ['王立'], addedAt: '2026-01-01T00:00:00.000Z' }),
  entry('j:2', { title: '交通出行意愿调查', authors: ['李青', '赵敏'], addedAt: '2026-01-02T00:00:00.000Z' }),
  entry('t:1', {
    title: '某硕士学位论文',
    authors: ['赵敏'],
    collection: 'thesis',
    chars: 300,
    addedAt: '2026-01-03T00:00:00.000Z',
  }),
  entry('upload:abc', {
    title: null,
    authors: ['周九'],
    collection: 'user',
    origin: 'upload',
    addedAt: '2026-01-04T00:00:00.000Z',
  }),
  entry('w:50%_off', { title: '100% 的折扣', collection: 'web', addedAt: '2026-01-05T00:00:00.000Z' }),
];

const ids = (r: { list: CatalogEntry[] }) => r.list.map((e) => e.id);

for (const kind of ['local', 'postgres'] as const) {
  describe(`the ${kind} catalogue`, () => {
    let catalog: Catalog;
    beforeAll(async () => {
      catalog = kind === 'local' ? openLocalCatalog(path.join(tmp, 'index')) : createPgCatalog(handle.db);
      await catalog.add(ENTRIES);
    });

    it('finds by the exact id, a word of the title or an author, in one collection or all, newest first', async () => {
      const page = { offset: 0, limit: 20 };
      expect(ids(await catalog.find({ text: '', ...page }))).toEqual([
        'w:50%_off',
        'upload:abc',
        't:1',
        'j:2',
        'j:1',
      ]);
      expect(ids(await catalog.find({ text: '交通', ...page }))).toEqual(['j:2', 'j:1']);
      expect(ids(await catalog.find({ text: '赵敏', ...page }))).toEqual(['t:1', 'j:2']);
      expect(ids(await catalog.find({ text: '赵敏', collection: 'thesis', ...page }))).toEqual(['t:1']);
      expect(ids(await catalog.find({ text: 'j:1', ...page }))).toEqual(['j:1']);
      expect(ids(await catalog.find({ text: '', collection: 'user', ...page }))).toEqual(['upload:abc']);
      // % and _ are characters, not patterns.
      expect(ids(await catalog.find({ text: '100%', ...page }))).toEqual(['w:50%_off']);
      expect(ids(await catalog.find({ text: '_', ...page }))).toEqual([]);
      const second = await catalog.find({ text: '', offset: 2, limit: 2 });
      expect(second.total).toBe(5);
      expect(ids(second)).toEqual(['t:1', 'j:2']);
    });

    it('states per collection its documents, characters and newest addition', async () => {
      expect(await catalog.composition()).toEqual([
        { collection: 'journal', documents: 2, chars: 200, lastAddedAt: '2026-01-02T00:00:00.000Z' },
        { collection: 'thesis', documents: 1, chars: 300, lastAddedAt: '2026-01-03T00:00:00.000Z' },
        { collection: 'web', documents: 1, chars: 100, lastAddedAt: '2026-01-05T00:00:00.000Z' },
        { collection: 'user', documents: 1, chars: 100, lastAddedAt: '2026-01-04T00:00:00.000Z' },
      ]);
    });
  });
}
