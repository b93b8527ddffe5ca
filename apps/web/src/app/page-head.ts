import { documentTitle, routeHead, SITE_DESCRIPTION, SITE_NAME } from '@kyfw/contracts';
import { useEffect, useLayoutEffect } from 'react';
import { useLocation } from 'react-router';

/**
 * The page's head after client-side navigation. The server writes the first page's title,
 * description, canonical link and Open Graph tags into the HTML (decision 0018); navigating within
 * the app rewrites them from the same route list (packages/contracts/src/routes.ts) and, on an
 * article, from the article's data — so the tab, bookmarks and a share of the current address name
 * the page that is shown.
 */
export interface PageHead {
  /** The page's own title; the document title adds the site name (documentTitle) unless `bare`. */
  title: string;
  /** The title as it is (the error pages: "Page Not Found", spec §2). */
  bare?: boolean;
  description?: string;
  /** The canonical path; null or absent: none (not indexable). */
  canonicalPath?: string | null;
  type?: 'website' | 'article';
}

function upsert(selector: string, create: () => HTMLElement): HTMLElement {
  const found = document.head.querySelector<HTMLElement>(selector);
  if (found) return found;
  const element = create();
  document.head.append(element);
  return element;
}

function setMeta(attribute: 'name' | 'property', key: string, content: string): void {
  upsert(`meta[${attribute}="${key}"]`, () => {
    const meta = document.createElement('meta');
    meta.setAttribute(attribute, key);
    return meta;
  }).setAttribute('content', content);
}

/** Writes `head` into document.head as the server writes it for a first load. */
export function applyPageHead(head: PageHead): void {
  const description = head.description ?? SITE_DESCRIPTION;
  document.title = head.bare ? head.title : documentTitle(head.title);
  setMeta('name', 'description', description);
  const url = head.canonicalPath ? `${window.location.origin}${head.canonicalPath}` : null;
  if (url) {
    upsert('link[rel="canonical"]', () => {
      const link = document.createElement('link');
      link.rel = 'canonical';
      return link;
    }).setAttribute('href', url);
  } else {
    document.head.querySelector('link[rel="canonical"]')?.remove();
  }
  setMeta('property', 'og:site_name', SITE_NAME);
  setMeta('property', 'og:type', head.type ?? 'website');
  setMeta('property', 'og:title', head.title);
  setMeta('property', 'og:description', description);
  setMeta('property', 'og:url', url ?? `${window.location.origin}${window.location.pathname}`);
  // The first page's article tags (cover image, author, tags) describe that article only.
  if (head.type !== 'article')
    for (const stale of document.head.querySelectorAll(
      'meta[property^="og:image"], meta[property^="article:"]',
    ))
      stale.remove();
}

/**
 * In the root layout: on every client-side navigation, the head of the route the path matches.
 * A layout effect, so that a page's own usePageHead (a passive effect) runs after it and wins.
 */
export function useRouteHead(): void {
  const { pathname } = useLocation();
  useLayoutEffect(() => {
    const head = routeHead(pathname);
    if (head)
      applyPageHead({
        title: head.shortTitle,
        description: head.description,
        canonicalPath: head.canonicalPath,
      });
  }, [pathname]);
}

/** A page whose head is not its route's alone (an article, the error pages); null: the route's. */
export function usePageHead(head: PageHead | null): void {
  const title = head?.title;
  const description = head?.description;
  const canonicalPath = head?.canonicalPath;
  const type = head?.type;
  const bare = head?.bare;
  useEffect(() => {
    if (title !== undefined) applyPageHead({ title, bare, description, canonicalPath, type });
  }, [title, bare, description, canonicalPath, type]);
}
