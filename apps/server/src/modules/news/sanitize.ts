import sanitizeHtml from 'sanitize-html';

/**
 * What an article body may contain (the editor's rich HTML, sanitised on the server before it is
 * stored): text structure, lists, quotes, tables, links and the site's own uploaded images. Nothing
 * else survives: no script, style, iframe, form or SVG (their content is dropped with them), no
 * class/style/on* attributes, no javascript:/data: URLs. Links are http(s) or mailto, or a path on
 * this site, and open with rel="noopener noreferrer nofollow"; images only from /media/news/ (the
 * page's Content-Security-Policy refuses other hosts anyway).
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'h2',
    'h3',
    'h4',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'sub',
    'sup',
    'mark',
    'blockquote',
    'ul',
    'ol',
    'li',
    'a',
    'img',
    'figure',
    'figcaption',
    'hr',
    'code',
    'pre',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'caption',
  ],
  allowedAttributes: {
    // rel is the one transformTags writes (any rel sent in is replaced).
    a: ['href', 'title', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
    ol: ['start'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: [] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'svg', 'math'],
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, rel: 'noopener noreferrer nofollow' },
    }),
  },
  exclusiveFilter: (frame) =>
    frame.tag === 'img' && !/^\/media\/news\/[0-9a-f-]{36}\/w[0-9]{3,4}\.webp$/.test(frame.attribs.src ?? ''),
};

/** The body as it may be stored and served. */
export function sanitizeArticleHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

/** The body's text without tags (a summary of what a reader sees; empty: nothing to publish). */
export function textOf(html: string): string {
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).replace(/\s+/g, ' ').trim();
}
