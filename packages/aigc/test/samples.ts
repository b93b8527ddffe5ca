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

/** A stock essay opening (在当今社会快速发展的背景下…): the model alone scores it low (issue 23). */
export const TEMPLATE_OPENING =
  '在当今社会快速发展的背景下，人工智能技术已经成为推动各行各业转型升级的重要力量。随着大数据、云计算等新兴技术的不断进步，' +
  '人工智能在教育领域的应用也日益广泛，受到了社会各界的高度关注。因此，深入研究人工智能在高等教育中的应用具有重要的理论意义和现实意义。';

/** A stock closing: two summary markers stacked (综上所述…总而言之…). */
export const TEMPLATE_CLOSING =
  '综上所述，人工智能在高等教育中的应用具有广阔的前景和重要的意义。总而言之，只有充分发挥人工智能的优势，同时有效应对其带来的挑战，' +
  '才能推动高等教育的高质量发展，为培养创新型人才提供有力支撑。';

/** A thesis's own conclusion: one 综上所述 with findings and figures, as people write them. */
export const HUMAN_CONCLUSION =
  '综上所述，本研究在三所高校发放问卷412份，回收有效问卷368份。结果显示，每周使用智能辅导系统超过三小时的学生，' +
  '期末成绩平均高出4.6分，但这一差异在理工科学生中并不显著。受样本所限，上述结论还需在更多学校检验。';

/** A student's own middle paragraph. */
export const PERSONAL_REPORT =
  '我们在学院的三个班级做了一个学期的试点。一开始学生不太习惯，作业交得乱七八糟，助教每周要花两个晚上整理。后来改成每周五统一截止，' +
  '情况才好起来。期末问卷回收了86份，其中有二十来份写了很长的意见，有人抱怨系统太慢，也有人说比以前方便。';
