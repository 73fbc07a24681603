import type { AnchorHTMLAttributes } from 'react';
import { useT } from '../lib/i18n';

/**
 * A link that leaves the site (or the embedding frame): a new tab, without giving the new page a
 * handle on this one. `noReferrer` also withholds the Referer header (documents linking elsewhere).
 */
export function ExternalLink({ noReferrer = false, children, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { noReferrer?: boolean }) {
  const t = useT();
  return (
    <a target="_blank" rel={noReferrer ? 'noopener noreferrer' : 'noopener'} {...rest}>
      {children}
      <span className="sr-only"> {t('common.newTab')}</span>
    </a>
  );
}

/**
 * True when `href` is an absolute http(s) URL on another origin than this page. Without a page (the
 * server prerendering one), every absolute http(s) URL counts as another origin; a path never does.
 */
export function isOtherOrigin(href: string, here: string | undefined = typeof window === 'undefined' ? undefined : window.location.origin): boolean {
  try {
    const url = new URL(href, here ?? 'http://prerender.invalid');
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    return here === undefined ? /^[a-z][a-z\d+.-]*:|^\/\//i.test(href.trim()) : url.origin !== here;
  } catch {
    return false;
  }
}
