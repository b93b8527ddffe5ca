import { Link } from 'react-router';
import '../news.css';
import { useCasePhotos } from '../api/list-case-photos';
import { newsTexts as t } from '../texts';

const SIZES = '(max-width: 640px) 100vw, (max-width: 1024px) 50vw, 400px';

/** The landing page's 案例展示: the case images operators publish; nothing while there are none. */
export function CasePhotos() {
  const photos = useCasePhotos();
  const list = photos.data ?? [];
  if (list.length === 0) return null;
  return (
    <section className="container landing-section" data-testid="case-photos">
      <header className="landing-section__head">
        <h2>{t.casesTitle}</h2>
      </header>
      <ul className="case-photos">
        {list.map((p) => {
          const figure = (
            <figure className="case-photos__figure">
              <img
                className="news-cover"
                src={p.image.src}
                srcSet={p.image.srcset}
                sizes={SIZES}
                width={p.image.width}
                height={p.image.height}
                alt={p.title}
                loading="lazy"
                decoding="async"
              />
              <figcaption>
                <strong>{p.title}</strong>
                {p.caption ? <span>{p.caption}</span> : null}
              </figcaption>
            </figure>
          );
          return (
            <li key={p.id} className="card-surface case-photos__item">
              {p.linkPath ? <Link to={p.linkPath}>{figure}</Link> : figure}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
