import type { AnchorHTMLAttributes } from 'react';

/**
 * A link that leaves the site (or the embedding frame): a new tab, without giving the new page a
 * handle on this one. `noReferrer` also withholds the Referer header (documents linking elsewhere).
 */
export function ExternalLink({ noReferrer = false, children, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { noReferrer?: boolean }) {
  return (
    <a target="_blank" rel={noReferrer ? 'noopener noreferrer' : 'noopener'} {...rest}>
      {children}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}

/** True when `href` is an absolute http(s) URL on another origin than this page. */
export function isOtherOrigin(href: string, here: string = window.location.origin): boolean {
  try {
    const url = new URL(href, here);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin !== here;
  } catch {
    return false;
  }
}
