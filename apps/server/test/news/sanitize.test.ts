import { describe, expect, it } from 'vitest';
import { sanitizeArticleHtml, textOf } from '../../src/modules/news/sanitize.ts';

const IMG = '/media/news/0b6a3f7e-1111-4222-8333-944445555666/w640.webp';

describe('article body sanitiser', () => {
  it.each([
    ['<p onclick="steal()">正文<script>alert(1)</script></p>', '<p>正文</p>'],
    ['<style>body{display:none}</style><p>正文</p>', '<p>正文</p>'],
    ['<p style="position:fixed" class="x" id="y">正文</p>', '<p>正文</p>'],
    ['<svg onload="alert(1)"><script>alert(1)</script></svg><p>正文</p>', '<p>正文</p>'],
    ['<iframe src="https://evil.example"></iframe><p>正文</p>', '<p>正文</p>'],
    ['<form action="https://evil.example"><input name="pw"></form><p>正文</p>', '<p>正文</p>'],
    ['<img src="x" onerror="alert(1)"><p>正文</p>', '<p>正文</p>'],
    ['<img src="https://evil.example/track.gif"><p>正文</p>', '<p>正文</p>'],
  ])('drops what could run or leak: %s', (input, expected) => {
    expect(sanitizeArticleHtml(input)).toBe(expected);
  });

  it('keeps no javascript:, vbscript: or data: link and marks every link rel=nofollow', () => {
    const out = sanitizeArticleHtml(
      '<a href="javascript:alert(1)">a</a><a href=" JaVaScRiPt:alert(1)">b</a><a href="vbscript:x">c</a>' +
        '<a href="data:text/html;base64,PHNjcmlwdD4=">d</a><a href="//evil.example">e</a>' +
        '<a href="https://www.gov.cn/" onmouseover="x()" rel="opener">政府网</a><a href="/check">查重</a>',
    );
    expect(out).not.toMatch(/javascript|vbscript|data:|evil|onmouseover|opener"/i);
    expect(out).toContain('<a href="https://www.gov.cn/" rel="noopener noreferrer nofollow">政府网</a>');
    expect(out).toContain('<a href="/check" rel="noopener noreferrer nofollow">查重</a>');
  });

  it('keeps the structure an article needs, and the site’s own images', () => {
    const html =
      '<h2>标题</h2><p><strong>粗</strong><em>斜</em></p><ul><li>一</li></ul><blockquote>引</blockquote>' +
      `<table><thead><tr><th colspan="2">表</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table><img src="${IMG}" alt="图">`;
    expect(sanitizeArticleHtml(html)).toBe(html.replace('alt="图">', 'alt="图" />'));
  });

  it('survives broken and nested markup without letting a tag through', () => {
    const out = sanitizeArticleHtml(
      '<p><scr<script>ipt>alert(1)</script></p><<img src=x onerror=alert(1)//<p>',
    );
    expect(out).not.toMatch(/<script|<img|onerror/i);
  });

  it('reads the text a reader sees', () => {
    expect(textOf('<p>一 <b>二</b></p>\n<p>三</p>')).toBe('一 二 三');
    expect(textOf(sanitizeArticleHtml('<script>x</script>'))).toBe('');
  });
});
