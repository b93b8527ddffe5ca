import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runLibraryImport } from '../src/cli/library-import.ts';
import type { Config } from '../src/config.ts';
import type { AddSummary } from '../src/modules/check/library/library.ts';

/**
 * The small comparison library of the tests. A similarity goods whose collections are all empty is
 * not sold (issue 12), so a test that orders a check gives its app this library first, as an
 * operator fills a fresh machine's (`npm run library:import`). Five short journal abstracts written
 * for the tests, on subjects no test paper touches (volcanoes, tides, bronze casting, migrating
 * birds, calendars), so a test paper matches nothing here by chance and the tests' own planted
 * passages (fixtures.ts) stay the only matches. The e2e journeys import the same records through
 * the CLI (apps/e2e/lib/journey.ts, importSmallLibrary).
 */
export const SMALL_LIBRARY: readonly {
  id: number;
  title: string;
  authors: string[];
  year: number;
  source: string;
  text: string;
}[] = [
  {
    id: 1,
    title: '长白山天池火山全新世喷发序列',
    authors: ['王立'],
    year: 2019,
    source: '岩石学报',
    text: '长白山天池火山在全新世至少经历了三期大规模喷发，千年大喷发形成的浮岩层在东北亚广泛分布。通过对浮岩与熔结凝灰岩的锆石定年和斑晶成分分析，可以区分各期岩浆房的温度与挥发分含量。火山口湖的水位变化与地热异常提示岩浆系统仍处于活跃状态，需要持续开展形变测量和气体监测，以评估未来喷发对下游河谷居民的威胁。',
  },
  {
    id: 2,
    title: '钱塘江涌潮的形成条件与季节变化',
    authors: ['李青', '赵敏'],
    year: 2020,
    source: '海洋学报',
    text: '钱塘江河口呈喇叭形，外宽内窄，加之江底拦门沙隆起，使外海潮波进入河口后急剧增高并破碎，形成举世闻名的涌潮。每年农历八月中旬，天文潮与季风叠加，潮头高度可达三米以上。近三十年来围垦工程改变了河口形态，涌潮的传播速度和形态随之变化，观潮安全管理也应依据潮汐预报及时调整。',
  },
  {
    id: 3,
    title: '商代晚期青铜器范铸工艺的复原实验',
    authors: ['陈光'],
    year: 2021,
    source: '考古学报',
    text: '殷墟出土的青铜礼器多采用分范合铸法，陶范由细泥与植物灰调和，经阴干和焙烧后拼合成型。复原实验表明，铜锡铅的配比决定了铸件的流动性与表面光泽，浇注温度过低时纹饰易出现缺铸。范线位置与芯撑痕迹为判断器物的铸造顺序提供了直接证据，也有助于辨识后世仿制品。',
  },
  {
    id: 4,
    title: '黄渤海沿岸鸻鹬类候鸟的迁徙停歇地',
    authors: ['周远'],
    year: 2022,
    source: '动物学杂志',
    text: '东亚至澳大利西亚迁飞路线上的鸻鹬类在春季北迁途中高度依赖黄渤海沿岸的潮间带滩涂补充能量。卫星追踪显示，大滨鹬可连续飞行五千公里后在此停歇数周，以双壳类和多毛类为主要食物。滩涂围垦与互花米草扩张使觅食地面积持续减少，保护停歇地已成为维持种群数量的关键措施。',
  },
  {
    id: 5,
    title: '元代授时历的日月五星推步方法',
    authors: ['孙杰'],
    year: 2023,
    source: '自然科学史研究',
    text: '郭守敬等人编制的授时历以实测为基础，采用三次差内插法推算日月运行，回归年长度取三百六十五点二四二五日，与现行公历相同。历法废除了上元积年，改以至元十八年冬至为历元，简化了计算。书中对五星伏见与交食的推步规则，反映了元代天文仪器与观测组织达到的水平。',
  },
];

/** Writes SMALL_LIBRARY as a JSON lines file in `dir`; returns its path. */
export function writeSmallLibrary(dir: string): string {
  const file = path.join(dir, 'small-library.jsonl');
  writeFileSync(file, `${SMALL_LIBRARY.map((r) => JSON.stringify(r)).join('\n')}\n`);
  return file;
}

/**
 * Imports SMALL_LIBRARY into the journal collection (学术期刊库) of the app's comparison library
 * through the real import (runLibraryImport, what `npm run library:import` runs); resolves to its
 * summary. 本科 and 期刊 are then on sale; 硕博 still needs the thesis collection.
 */
export async function importSmallLibrary(t: {
  config: Pick<Config, 'check' | 'databaseUrl'>;
}): Promise<AddSummary> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kyfw-small-library-'));
  try {
    return await runLibraryImport(
      { input: writeSmallLibrary(dir), collection: 'journal' },
      t.config,
      () => {},
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
