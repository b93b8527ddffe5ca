/** Hand-written passages for the tests (not from the training or test data). */

/** Assistant-style: connectives, stock phrases, even sentences. */
export const TEMPLATED =
  '首先，人工智能技术在教育领域发挥着重要作用。其次，它可以帮助学生提高学习效率，并为教师提供个性化的教学建议。' +
  '此外，人工智能还能够帮助学校优化资源配置，从而提升整体的教学质量。值得注意的是，在应用过程中需要关注数据安全和隐私保护等问题。' +
  '总的来说，人工智能在教育中的应用具有重要意义，可以帮助我们更好地应对未来的挑战。';

/** A student's own, uneven, personal writing. */
export const PERSONAL =
  '说实话，我一开始根本没打算做这个题目。导师那天随口提了一句，我回去翻了两晚上文献，越看越觉得有意思——尤其是九十年代那批县志，' +
  '记录得乱七八糟，可细节特别多。后来跑了三趟档案馆，第二趟还吃了闭门羹，管理员说系统升级。挺崩溃的，但也正是那次，' +
  '我在走廊的旧报刊架上翻到了一份1987年的油印小报，这才有了第三章。';
