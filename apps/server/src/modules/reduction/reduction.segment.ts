/**
 * Chinese word segmentation with part of speech for the rewrite checks (reduction.facts.ts):
 * jieba through @node-rs/jieba and the dictionary that package ships (loaded once, on first use,
 * about 0.3 s and 40 MB). Nothing is downloaded; nothing of ../shared/data is used.
 *
 * The dictionary's tags are noisy for names (关联 is a place, 统计学 an organisation, 文明 a
 * person), so `namesOf` keeps only words that look like names: a person's name is a rare dictionary
 * name or an unknown word beginning with a common surname; a place or an organisation has at least
 * two characters and is not on the short list of common words the dictionary mis-tags.
 */
import { Jieba } from '@node-rs/jieba';
import { dict } from '@node-rs/jieba/dict.js';

export interface Word {
  word: string;
  tag: string;
  start: number;
  end: number;
}

let jieba: Jieba | undefined;
/** Dictionary frequency of the words tagged as person names (real names are rare words). */
let personFrequency: Map<string, number> | undefined;

function load(): Jieba {
  if (jieba) return jieba;
  jieba = Jieba.withDict(dict);
  personFrequency = new Map();
  const text = new TextDecoder().decode(dict);
  for (const line of text.split('\n')) {
    const [word, freq, tag] = line.split(' ');
    if (word && tag?.startsWith('nr')) personFrequency.set(word, Number(freq));
  }
  return jieba;
}

/** The words of a text with their tags and positions (UTF-16 offsets). */
export function wordsOf(text: string): Word[] {
  const out: Word[] = [];
  let at = 0;
  for (const { word, tag } of load().tag(text, true)) {
    const start = text.indexOf(word, at);
    const s = start < 0 ? at : start;
    out.push({ word, tag, start: s, end: s + word.length });
    at = s + word.length;
  }
  return out;
}

/** Common single-character surnames (和, 于, 向, 时, 全, 应, 成… left out: far more often words). */
const SURNAMES = new Set(
  [
    ...'王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔汤温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶牟艾尤阳穆农司卓古吉缪简车项芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂佟臧闵苟邬边卞姬师仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝',
  ].map(String),
);
const COMPOUND_SURNAMES = [
  '欧阳',
  '司马',
  '诸葛',
  '上官',
  '司徒',
  '东方',
  '皇甫',
  '慕容',
  '令狐',
  '夏侯',
  '公孙',
  '长孙',
  '宇文',
  '尉迟',
];

/** Common words the shipped dictionary tags as places or organisations. */
const NOT_NAMES = new Set([
  '关联',
  '东西',
  '山水',
  '城市',
  '太阳',
  '大街',
  '英雄',
  '长大',
  '古典',
  '高山',
  '平原',
  '大海',
  '山坡',
  '回国',
  '南北',
  '东北',
  '西北',
  '华北',
  '中原',
  '上马',
  '外国',
  '开国',
  '大桥',
  '古城',
  '山河',
  '内河',
  '商城',
  '中路',
  '共和国',
  '哥哥',
  '党组织',
  '交易会',
  '交易所',
  '商业银行',
  '人民政府',
  '国家机关',
  '中西部',
  '中人',
  '国家队',
  '大都',
  '华夏',
]);

const PERSON_MAX_FREQUENCY = 500;

function looksLikePersonName(word: string): boolean {
  const chars = [...word];
  if (chars.length < 2 || chars.length > 4 || !/^\p{Script=Han}+$/u.test(word)) return false;
  // A function character inside is a phrase the HMM glued (时以, 和在), not a name.
  if (/[的了在是和与为对于以而及或将把被从向到也都就又还其这那之所能会可把]/u.test(chars.slice(1).join('')))
    return false;
  if (COMPOUND_SURNAMES.some((s) => word.startsWith(s))) return chars.length >= 3;
  return SURNAMES.has(chars[0]!) && chars.length <= 3;
}

export type NameKind = 'person' | 'place' | 'organisation';
export interface Name {
  text: string;
  kind: NameKind;
}

/** Person, place and organisation names of a text, in order, each once. */
export function namesOf(text: string, words: readonly Word[] = wordsOf(text)): Name[] {
  load();
  const seen = new Set<string>();
  const out: Name[] = [];
  const add = (w: string, kind: NameKind) => {
    if (seen.has(w)) return;
    seen.add(w);
    out.push({ text: w, kind });
  };
  for (const { word, tag } of words) {
    if ([...word].length < 2 || NOT_NAMES.has(word) || !/\p{Script=Han}/u.test(word)) continue;
    if (tag === 'nr') {
      const freq = personFrequency!.get(word);
      if (looksLikePersonName(word) && (freq === undefined || freq < PERSON_MAX_FREQUENCY))
        add(word, 'person');
    } else if (tag === 'nrt' || tag === 'nrfg') {
      add(word, 'person');
    } else if (tag === 'x') {
      // An unknown word the HMM found: a name when it begins with a surname (张华, 陈静).
      if (looksLikePersonName(word) && !personFrequency!.has(word)) add(word, 'person');
    } else if (tag === 'ns') {
      add(word, 'place');
    } else if (tag === 'nt') {
      // 统计学, 伦理学: disciplines the dictionary tags as organisations (大学, 中学 are schools).
      if (!/(?<![大中小])学$/u.test(word)) add(word, 'organisation');
    }
  }
  return out;
}
