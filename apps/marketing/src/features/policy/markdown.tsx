import { Link } from '@tickety/shared';
import Markdown, { type Components, defaultUrlTransform } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { isOtherOrigin } from '../../components/links';
import type { TocEntry } from './policies';

/** Protocols a link in a document may use; anything else (javascript:, data:, vbscript:) becomes plain text. */
const SAFE_LINK = /^(?:https?:|mailto:|#|\/(?!\/)|\.{0,2}\/)/i;

function headingId(node: { position?: { start: { line: number } } } | undefined, toc: TocEntry[]): string | undefined {
  const line = node?.position?.start.line;
  return line === undefined ? undefined : toc.find((e) => e.line === line)?.id;
}

function components(toc: TocEntry[]): Components {
  return {
    // The page already has its h1: a `#` heading in a document becomes a section heading.
    h1: ({ node, children }) => (
      <h2 id={headingId(node, toc)} className="scroll-mt-24">
        {children}
      </h2>
    ),
    h2: ({ node, children }) => (
      <h2 id={headingId(node, toc)} className="scroll-mt-24">
        {children}
      </h2>
    ),
    a: ({ href, children }) => {
      const target = (href ?? '').trim();
      if (target === '' || !SAFE_LINK.test(target)) return <span>{children}</span>;
      if (target.startsWith('/') && !target.startsWith('//')) return <Link to={target}>{children}</Link>;
      if (isOtherOrigin(target)) {
        return (
          <a href={target} target="_blank" rel="noopener noreferrer">
            {children}
          </a>
        );
      }
      return <a href={target}>{children}</a>;
    },
    // Documents are text: images would load from other origins and tell them who reads what.
    img: ({ alt }) => (alt ? <span>{alt}</span> : null),
    table: ({ children }) => (
      <div className="overflow-x-auto">
        <table>{children}</table>
      </div>
    ),
  };
}

/**
 * Renders a policy document: GitHub-flavoured Markdown, raw HTML dropped (no rehype-raw), unsafe URLs
 * neutralised, internal links through the router, links to other origins in a new tab.
 */
export function DocumentMarkdown({ source, toc }: { source: string; toc: TocEntry[] }) {
  return (
    <Markdown remarkPlugins={[remarkGfm]} skipHtml urlTransform={defaultUrlTransform} components={components(toc)}>
      {source}
    </Markdown>
  );
}
