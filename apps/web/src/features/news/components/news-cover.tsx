import type { ArticleCategory, NewsImage } from '@kyfw/contracts';
// The feature's styles come with the component every news view uses (an index's own imports are
// dropped when only its re-exports are used: package.json sideEffects).
import '../news.css';
import { newsTexts as t } from '../texts';

/**
 * An article's cover at the width the layout gives it: the browser picks from the server's widths
 * (spec §9 breakpoints at densities 1 and 2) by `sizes`. Without a cover, a drawn placeholder in the
 * category's colour with its name, at the same 16:9 size.
 */
export function NewsCover({
  image,
  category,
  sizes,
  alt = '',
  eager = false,
}: {
  image: NewsImage | null;
  category: ArticleCategory;
  sizes: string;
  alt?: string;
  eager?: boolean;
}) {
  if (!image) {
    return (
      <div className={`news-cover news-cover--placeholder news-cover--${category}`} aria-hidden="true">
        <span>{t.categories[category]}</span>
      </div>
    );
  }
  return (
    <img
      className="news-cover"
      src={image.src}
      srcSet={image.srcset}
      sizes={sizes}
      width={image.width}
      height={image.height}
      alt={alt}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
    />
  );
}
