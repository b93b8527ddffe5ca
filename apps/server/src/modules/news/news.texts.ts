/** Every Chinese text of the news module's server side. */
export const TEXTS = {
  articleNotFound: '该资讯不存在或已下线',
  adminArticleNotFound: '文章不存在',
  slugTaken: '该网址已被其他文章使用，请换一个',
  bodyEmpty: '正文不能为空（脚本、样式等不安全的内容不会保存）',
  coverNotFound: '封面图片不存在，请重新上传',
  imageNotFound: '图片不存在，请重新上传',
  casePhotoNotFound: '案例图片不存在',
  saved: '已保存',
  published: '已发布，资讯页面已更新',
  unpublished: '已下线，读者将看不到这篇文章',
  imageRequired: '请选择要上传的图片',
  imageType: '请上传 PNG、JPEG 或 WebP 格式的图片',
  imageTooSmall: (px: number) => `图片宽度至少${px}像素`,
  imageUploaded: '图片已上传',
  casePhotoSaved: '案例图片已保存',
  casePhotoDeleted: '案例图片已删除',
} as const;

/** What each news action is called in the console's audit log. */
export const NEWS_ACTION_TEXTS: Record<string, string> = {
  'news.list': '查看资讯文章',
  'news.detail': '查看资讯文章详情',
  'news.save': '保存资讯文章',
  'news.publish': '发布资讯文章',
  'news.unpublish': '下线资讯文章',
  'news.image': '上传资讯图片',
  'casePhoto.list': '查看案例图片',
  'casePhoto.save': '保存案例图片',
  'casePhoto.delete': '删除案例图片',
};
