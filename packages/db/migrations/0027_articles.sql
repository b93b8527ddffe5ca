-- Industry news (行业资讯, /industryNews; spec §7 /home/article, /home/articleContent). An article is
-- addressed by its slug, the catch-all path under /industryNews (e.g. 'guide/2026/read-check-report').
-- body_html is written by us or by operators and sanitised before it is stored; the web renders it
-- as HTML. Only status 'published' rows are served.
create table articles (
  id bigint generated always as identity primary key,
  slug text not null unique
    check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*(/[a-z0-9]+(-[a-z0-9]+)*){0,4}$' and char_length(slug) <= 200),
  category text not null check (category in ('guide', 'norms', 'policy')),
  title text not null check (char_length(title) between 1 and 120),
  summary text not null check (char_length(summary) between 1 and 300),
  body_html text not null,
  author text not null check (char_length(author) between 1 and 60),
  source text,
  tags jsonb not null default '[]'::jsonb,
  status text not null default 'draft' check (status in ('published', 'draft')),
  published_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (status = 'draft' or published_at is not null)
);
create index articles_list_idx on articles (status, category, published_at desc);

-- Three articles the project writes about its own field. Facts only; no invented news.
insert into articles (slug, category, title, summary, body_html, author, source, tags, status, published_at)
values
(
  'guide/2026/read-check-report',
  'guide',
  '如何读懂一份论文查重报告',
  '总文字复制比、去除引用文献复制比、单篇最大文字复制比分别说明什么，以及怎样用全文对照逐段修改。',
  '<p>拿到查重报告后，先别只盯着一个百分比。一份完整的报告通常给出几个不同口径的指标，它们回答的是不同的问题。</p>'
  || '<h2>总文字复制比</h2><p>被判定为与比对库中已有文献相同或高度相似的文字，占全文字数的比例。它包含所有重合文字，也包括你规范引用的内容，因此往往是最高的那个数字。</p>'
  || '<h2>去除引用文献复制比</h2><p>从重合文字中扣除被系统识别为“已引用”的部分之后的比例。系统能否识别为引用，取决于引文是否有引号、标注和与参考文献表对应的序号，所以引用格式不规范时，这个数字不会下降。</p>'
  || '<h2>单篇最大文字复制比</h2><p>与某一篇来源文献重合的文字占全文的比例中最大的那一个。即使总复制比不高，单篇比例偏高也说明论文大量依赖了某一篇文献，值得重点检查。</p>'
  || '<h2>全文对照</h2><p>把论文中标红的段落与命中的来源原文并排显示，并给出来源的题名、作者和出处。修改时应逐段对照：确属引用的，补齐引号和参考文献；属于转述的，用自己的语言重新组织并注明出处；与来源无关的巧合表述，可调整措辞。</p>'
  || '<h2>合格线以谁为准</h2><p>不同学校、学院和期刊对各项比例的要求不同，有的看总复制比，有的看去除引用后的比例，还会对单篇比例另设上限。请以学校或期刊的正式通知为准；不同检测系统的比对库不同，同一篇论文在不同系统中的结果也会有差异。</p>',
  '科研服务网编辑部',
  null,
  '["查重报告", "文字复制比", "全文对照"]'::jsonb,
  'published',
  '2026-11-26T08:00:00+08:00'
),
(
  'norms/2026/citation-gb-t-7714',
  'norms',
  '参考文献怎么写：GB/T 7714—2015 著录格式与引用规范',
  '按国家标准《信息与文献 参考文献著录规则》写参考文献，并分清什么时候直接引用、什么时候转述。',
  '<p>我国学位论文和多数中文期刊的参考文献格式依据国家标准 GB/T 7714—2015《信息与文献 参考文献著录规则》。它规定了两种标注体系：按正文中出现顺序编号的“顺序编码制”和按“著者-出版年”标注的“著者-出版年制”，具体采用哪一种，以学校或期刊的要求为准。</p>'
  || '<h2>常见文献类型标识</h2><p>普通图书 [M]、期刊 [J]、学位论文 [D]、会议录 [C]、报告 [R]、标准 [S]、专利 [P]、报纸 [N]、电子公告 [EB]、数据库 [DB]、数据集 [DS]。网上获取的文献还要加载体标识 OL，例如 [J/OL]，并写明引用日期和访问路径，有 DOI 的应著录 DOI。</p>'
  || '<h2>两种最常用的格式</h2><p>期刊文章：主要责任者. 题名[J]. 刊名, 年, 卷(期): 起止页码.</p><p>专著：主要责任者. 书名[M]. 版本项. 出版地: 出版者, 出版年: 引文页码.</p><p>责任者不超过 3 个时全部著录，超过 3 个时只著录前 3 个，其后加“, 等”（外文用“, et al.”）。</p>'
  || '<p>以标准本身为例：全国信息与文献标准化技术委员会. 信息与文献 参考文献著录规则: GB/T 7714—2015[S]. 北京: 中国标准出版社, 2015.</p>'
  || '<h2>直接引用还是转述</h2><p>原文的措辞本身很重要时（定义、法条、重要论断、访谈原话）才直接引用：照录原文，加引号，标注出处和页码，篇幅宜短。其余情况用转述：读懂原意后用自己的语言和结构重新表达，同样必须标注出处。只替换几个词、调换语序不是转述；不注明出处地使用他人观点，无论是否改写，都属于学术不端。</p>',
  '科研服务网编辑部',
  'GB/T 7714—2015《信息与文献 参考文献著录规则》',
  '["参考文献", "GB/T 7714", "引用规范"]'::jsonb,
  'published',
  '2026-11-26T08:00:00+08:00'
),
(
  'policy/2025/aigc-labelling',
  'policy',
  '《人工智能生成合成内容标识办法》施行：显式标识与隐式标识对学生意味着什么',
  '2025 年 9 月 1 日起，AI 生成的文本、图片、音视频须按规定添加标识。用 AI 写作工具的同学需要知道的几点。',
  '<p>国家互联网信息办公室、工业和信息化部、公安部、国家广播电视总局联合发布的《人工智能生成合成内容标识办法》自 2025 年 9 月 1 日起施行，配套的强制性国家标准 GB 45438—2025《网络安全技术 人工智能生成合成内容标识方法》同日实施。</p>'
  || '<h2>两种标识</h2><p><strong>显式标识</strong>是用户能直接看到或听到的提示，例如在生成文本的开头、末尾或中间加上文字提示，在图片、视频上加上可见的标记。<strong>隐式标识</strong>是写在文件元数据里的信息，如内容属性、服务提供者名称或编码、内容编号等，一般看不到，但可以被平台和工具读取；办法还鼓励服务提供者加入数字水印。</p>'
  || '<h2>谁负责加标识</h2><p>提供生成合成服务的平台应按规定添加标识；用户下载、复制、导出生成内容时，文件中应保留显式标识。用户要求提供不带显式标识的内容时，平台须先在用户协议中明确用户的标识义务和使用责任，并留存相关日志不少于六个月。用户通过网络平台发布生成合成内容时，应主动声明并使用平台提供的标识功能。任何组织和个人不得恶意删除、篡改、伪造、隐匿标识。</p>'
  || '<h2>对写论文的同学意味着什么</h2><p>办法规范的是内容的标识，并不决定论文中能否使用 AI；能否使用、怎样使用，以学校和期刊的规定为准。《中华人民共和国学位法》已将“人工智能代写”列为学术不端行为之一。稳妥的做法是：只把 AI 用于检索、梳理思路和润色等辅助环节，在论文中如实说明使用情况，不为了规避检测去删改标识。AIGC 检测给出的是概率性判断，可以用来自查，但不能代替你对自己文字的负责。</p>',
  '科研服务网编辑部',
  '《人工智能生成合成内容标识办法》（2025 年 9 月 1 日起施行）',
  '["AIGC", "内容标识", "学术规范"]'::jsonb,
  'published',
  '2026-11-26T08:00:00+08:00'
);
