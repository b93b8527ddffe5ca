/**
 * Hand-written thesis-like Chinese fixtures: a small library of five sources on different topics,
 * and helpers to build an index of them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LibraryDocument } from '../src/index.ts';

export const SRC_PLAGIARISM =
  '随着互联网技术的快速发展，学术不端行为呈现出新的特点，文本复制与改写变得更加隐蔽。' +
  '传统的基于字符串匹配的检测方法难以识别经过同义词替换和语序调整的抄袭文本。' +
  '本文提出一种融合词向量与局部敏感哈希的相似度计算模型，首先对文本进行分词和停用词过滤，然后构建句子级别的语义表示，最后通过候选筛选与精细比对两个阶段完成检测。' +
  '实验结果表明，该模型在公开数据集上的召回率和准确率均优于现有方法。';

export const SRC_SOIL =
  '土壤有机碳是陆地生态系统碳库的重要组成部分，其含量变化直接影响区域碳平衡。' +
  '本研究以黄土高原典型流域为对象，采集不同土地利用方式下的土壤样品，分析了有机碳含量的空间分布特征及其影响因素。' +
  '结果显示，林地和草地的表层土壤有机碳含量显著高于耕地，坡度和海拔对有机碳分布具有明显的调控作用。' +
  '研究结论可为退耕还林工程的生态效益评价提供科学依据。';

export const SRC_EDUCATION =
  '高校思想政治教育是落实立德树人根本任务的关键环节。' +
  '当前，部分高校在课程思政建设中仍存在目标定位模糊、教学方法单一、评价体系不健全等问题。' +
  '本文从教师队伍建设、课程内容设计和协同育人机制三个方面提出改进策略，强调应当充分挖掘专业课程中蕴含的思想政治教育元素，使知识传授与价值引领有机统一，从而提升人才培养质量。';

export const SRC_MEDICINE =
  '目的：探讨早期康复训练对脑卒中患者肢体功能恢复的影响。' +
  '方法：选取某医院收治的脑卒中患者120例，随机分为观察组和对照组，对照组给予常规护理，观察组在此基础上实施早期康复训练。' +
  '结果：干预8周后，观察组患者的Fugl-Meyer运动功能评分和日常生活能力评分均明显高于对照组，差异具有统计学意义。' +
  '结论：早期康复训练能够有效促进脑卒中患者肢体功能的恢复。';

export const SRC_ECONOMY =
  '数字经济的蓬勃发展正在深刻改变传统产业的组织形态和竞争格局。' +
  '本文基于2011年至2020年的省级面板数据，运用双重差分模型考察了数字基础设施建设对制造业转型升级的影响。' +
  '研究发现，数字基础设施显著提升了制造业的全要素生产率，且这一效应在东部地区更为明显。' +
  '进一步的机制分析表明，技术创新和人力资本积累是重要的传导路径。';

export const LIBRARY: LibraryDocument[] = [
  { id: 'plag', title: '融合词向量的文本抄袭检测', text: SRC_PLAGIARISM },
  { id: 'soil', title: '黄土高原土壤有机碳空间分布', text: SRC_SOIL },
  { id: 'edu', title: '高校课程思政建设策略', text: SRC_EDUCATION },
  { id: 'med', title: '早期康复训练对脑卒中患者的影响', text: SRC_MEDICINE },
  { id: 'econ', title: '数字基础设施与制造业转型升级', text: SRC_ECONOMY },
];

/** Honest writing of our own, on the same topic as SRC_PLAGIARISM but not copied from it. */
export const OWN_SAME_TOPIC =
  '近年来，论文查重系统在各类高校得到普遍应用，但学生对其工作原理往往知之甚少。' +
  '笔者在调研中发现，不少同学把降低重复率简单理解为调换词语顺序，这种做法既违背学术规范，也未必能够奏效。' +
  '因此，有必要从写作训练入手，引导学生规范引用他人观点，并在阅读文献的基础上形成自己的见解。';

/** More own writing, unrelated to any source. */
export const OWN_OTHER =
  '本章首先介绍研究区域的自然地理概况，随后说明数据来源与处理流程。' +
  '研究区位于长江中游平原，气候温和湿润，年平均降水量较为充沛，农业生产历史悠久。' +
  '为保证样本的代表性，我们在不同季节分三次开展了野外调查，并对每一份记录进行了人工复核。';

export function makeTempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `simcheck-${prefix}-`));
}

/** Code point slice helper: the text of a match range (offsets are code points). */
export function sliceCodePoints(text: string, start: number, end: number): string {
  return Array.from(text).slice(start, end).join('');
}

/** Code point offset of `part` in `text` (the first occurrence), or -1. */
export function codePointIndexOf(text: string, part: string): number {
  const i = text.indexOf(part);
  return i < 0 ? -1 : Array.from(text.slice(0, i)).length;
}
