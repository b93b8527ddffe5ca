/**
 * A disguised passage is reported as one match (issue 12): a synonym rewrite whose unchanged
 * sentences are long enough to be verbatim on their own, or one of whose sentences was rewritten
 * beyond the word-level thresholds, used to come back in pieces (verbatim between two paraphrases,
 * or two paraphrases around a gap). The passages are two cases of the benchmark's test set: CSL
 * abstracts (Apache-2.0) with their words replaced by synonyms from 同义词词林扩展版 (research use;
 * here as test data only).
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex, checkText, type LocalIndex, type Report } from '../src/index.ts';
import { LIBRARY, makeTempDir, OWN_OTHER, OWN_SAME_TOPIC } from './fixtures.ts';

const WEB_SERVICES = {
  id: 'csl-17335',
  title: '利用服务聚类优化面向过程模型的语义Web服务发现',
  text: '如何快速、准确和高效地发现满足用户需求的 Web 服务是现阶段急需解决的关键问题之一。文中针对现有的 Web 服务发现机制中存在的效率低下和查准率不高的两个问题，提出了一个新的语义 Web 服务发现框架。在该框架下，采用 Petri 网作为 Web 服务过程描述的形式化工具。首先，利用聚类技术，从服务的功能相似和过程相似两个层面对服务进行聚类预处理，从而在很大程度上降低服务的查找空间，提高服务的查找效率。进一步，针对服务请求中可能潜在的行为约束，建立基于 Petri 网的过程需求模型，将其与候选服务的过程模型进行比较，对满足功能需求的可行服务进一步筛选，从而提高查找的精确度。最后，利用仿真实验对所提出的方法进行验证。',
};
/** Its first 291 characters with synonyms; one sentence in the middle changed beyond recognition. */
const WEB_SERVICES_REWRITTEN =
  '怎么着快快、准儿和快快地意识满足用户需要的 Web 服务是现阶段急需解决的关键问题某个。文中本着共存的 Web 劳务察觉机制中设有的频率下垂和查准率不高的两个狐疑，提出了一个新的语义 Web 劳动发现框架。在该框架下，运用 Petri 网一言一行 Web 劳动进程叙述的形式化工具。首先，使唤聚类技艺，从劳动的功用似的和历程诚如两个范围对劳务开展聚类预处理，就此在很大化境上下跌劳动的搜寻空中，滋长劳动的查找频率。更其，指向劳动请求中谅必心腹的表现系缚，建立依据 Petri 网的经过急需模子，将其与候选劳动的进程模型进行比较，对满足力量急需的实惠劳动更其筛选，据此提高物色的精确度。';

const HIPPOCAMPUS = {
  id: 'csl-16899',
  title: '乙酰胆碱介导的内皮超极化因子对海马神经元缺氧/再给氧损伤的保护作用',
  text: '目的 研究乙酰胆碱（acetylcholine，ACh）介导的大鼠大脑中动脉内皮释放的内皮超极化因子（endothelium-dependent hyperpolarizing factor，EDHF）对海马神经元缺氧/再给氧损伤的保护作用。方法 用原代培养的大鼠海马神经元细胞建立缺氧/再给氧损伤模型，取大鼠大脑中动脉（middle cerebral artery，MCA）血管段，PGI2和NO的阻断剂NG-nitro-L-argininemethyl ester（L-NAME）和indomethacin（Indo）预处理后，用ACh刺激血管内皮释放EDHF，用四甲基偶氮唑盐（MTT）染色吸光度和乳酸脱氢酶（LDH）活性作为细胞损伤指标，用激光共聚焦显微镜检测细胞内游离Ca2+浓度。结果 与正常对照组相比，缺氧/再给氧损伤组细胞MTT染色吸光度明显降低，上清液中LDH活性和细胞内Ca2+浓度则明显升高。1 μmol·L-1 ACh合用含血管内皮的MCA血管段（MCA/Endo）或ACh+MCA/Endo+L-NAME+Indo均可抑制缺氧/再给氧致海马细胞MTT染色吸光度降低、培养上清液中LDH活性及细胞内Ca2+浓度的升高，但单用1 μmol·L-1 ACh或MCA/Endo却无上述抑制作用，合用1 μmol·L-1 ACh和去内皮MCA血管段（MCA/-Endo）也无明显抑制作用。K+在25～35 μmol·L-1范围内，可明显减弱ACh+MCA/Endo+L-NAME+Indo对缺氧再给氧致海马神经细胞MTT染色吸光度降低、上清液LDH活性及细胞内Ca2+浓度升高的抑制作用，但Ba2+没有明显影响。结论 假定的EDHF对原代培养的海马神经元缺氧/再给氧损伤具有保护作用，其机制可能与抑制缺氧/再给氧引起的钙超载有关。',
};
/** Characters 346–714 with synonyms; two sentences in the middle left as they were. */
const HIPPOCAMPUS_REWRITTEN =
  '下场 与常规对照组相对而言，缺氧/再给氧摧残组细胞MTT染色吸灯光明显降低，上清液中LDH活性和细胞内Ca2+深浅则触目升高。1 μmol·L-1 ACh管用含血脉内皮的MCA血脉段（MCA/Endo）或ACh+MCA/Endo+L-NAME+Indo均可抑制缺氧/再给氧致海马细胞MTT染色吸灯光销价、扶植上清液中LDH活性及细胞内Ca2+浓淡的上升，但单用1 μmol·L-1 ACh或MCA/Endo却无以上抑制作用，使得1 μmol·L-1 ACh和去内皮MCA血脉段（MCA/-Endo）也无醒目抑制作用。K+在25～35 μmol·L-1规模内，可显而易见减弱ACh+MCA/Endo+L-NAME+Indo对缺氧再给氧致海马神经元MTT染色吸灯光滑降、上清液LDH活性及细胞内Ca2+浓淡升腾的抑制作用，但Ba2+低位昭彰无凭无据。';

let dir: string;
let index: LocalIndex;

beforeAll(async () => {
  dir = makeTempDir('disguised');
  index = await buildIndex(dir, [...LIBRARY, WEB_SERVICES, HIPPOCAMPUS]);
});

afterAll(async () => {
  await index.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The matches of `sourceId` over `passage` in `text` (UTF-16 offsets: no characters outside the BMP here). */
function matchesOver(report: Report, text: string, passage: string, sourceId: string) {
  const start = text.indexOf(passage);
  const end = start + passage.length;
  const own = report.matches.filter((m) => m.sourceId === sourceId && m.start < end && start < m.end);
  let covered = 0;
  for (const m of own) covered += Math.min(end, m.end) - Math.max(start, m.start);
  return { own, coverage: covered / passage.length };
}

describe('a disguised passage', () => {
  it.each([
    ['a rewrite with one sentence changed beyond recognition', WEB_SERVICES_REWRITTEN, WEB_SERVICES.id],
    ['a rewrite with two sentences left as they were', HIPPOCAMPUS_REWRITTEN, HIPPOCAMPUS.id],
  ])('is one paraphrase match: %s', async (_name, passage, sourceId) => {
    const text = `${OWN_OTHER}\n${passage}\n${OWN_SAME_TOPIC}`;
    const report = await checkText(index, text);
    const { own, coverage } = matchesOver(report, text, passage, sourceId);
    expect(own.map((m) => m.kind)).toEqual(['paraphrase']);
    expect(coverage).toBeGreaterThan(0.95);
    // the honest text around it stays unmarked
    for (const m of report.matches) expect(m.sourceId).toBe(sourceId);
  });
});
