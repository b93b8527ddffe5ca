import type { ArticleCategory } from '@kyfw/contracts';

/** Texts of the industry news pages (/industryNews). */
export const newsTexts = {
  eyebrow: '科研服务网 · 资讯',
  all: '全部',
  categories: {
    guide: '查重与写作指南',
    norms: '学术规范',
    policy: '政策解读',
  } satisfies Record<ArticleCategory, string>,
  listTitle: '最新资讯',
  empty: '该分类下暂无资讯。',
  loadFailed: '资讯加载失败，请稍后重试。',
  retry: '重试',
  readMore: '阅读全文',
  back: '返回资讯列表',
  author: '作者',
  source: '依据',
  published: '发布于',
  unpublished: '未发布',
  lastSaved: '最后保存于',
  latestTitle: '行业资讯',
  more: '更多资讯',
  casesTitle: '案例展示',
};
