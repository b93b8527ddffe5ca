/**
 * Word lists the interpretable features count. Chosen by reading generated and human answers in the
 * training split only (never the held-out files); each list is small on purpose so that a reason
 * shown to a student can be checked by reading the paragraph.
 */

/** Discourse connectives that structure an argument; dense use is typical of generated text. */
export const CONNECTIVES: readonly string[] = [
  '首先',
  '其次',
  '再次',
  '最后',
  '此外',
  '另外',
  '同时',
  '因此',
  '然而',
  '总之',
  '综上所述',
  '总的来说',
  '总而言之',
  '换句话说',
  '一方面',
  '另一方面',
  '不仅',
  '从而',
  '进而',
  '由此可见',
  '与此同时',
  '除此之外',
  '具体来说',
  '具体而言',
  '简而言之',
  '也就是说',
];

/** Stock phrases and hedged templates of assistant-style generated text. */
export const TEMPLATE_PHRASES: readonly string[] = [
  '值得注意的是',
  '需要注意的是',
  '需要指出的是',
  '总的来说',
  '综上所述',
  '总而言之',
  '在这种情况下',
  '在一定程度上',
  '重要作用',
  '重要意义',
  '至关重要',
  '不可或缺',
  '有助于',
  '可以帮助',
  '以确保',
  '旨在',
  '如果您',
  '建议您',
  '希望对您',
  '希望能帮',
  '以下是',
  '以下几',
  '这取决于',
  '可能会',
  '一般来说',
  '通常情况下',
  '这意味着',
  '这是因为',
  '各种各样',
  '多种因素',
  '具体情况',
  '相关的',
  '进行评估',
  '寻求专业',
];

/** Hedges. */
export const HEDGES: readonly string[] = ['可能', '通常', '一般', '往往', '或许', '也许', '某些'];

/** Colloquial particles and marks of spontaneous writing; their absence is typical of generated text. */
export const COLLOQUIAL: readonly string[] = [
  '吧',
  '呢',
  '啊',
  '哈',
  '嘛',
  '呀',
  '哦',
  '啦',
  '嗯',
  '呵',
  '咋',
  '啥',
  '挺',
  '~',
  '～',
  '…',
  '!!',
  '！！',
  '??',
  '？？',
];
