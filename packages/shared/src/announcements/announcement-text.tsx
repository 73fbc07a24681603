import { type AnnouncementInline, type AnnouncementSeverity, parseAnnouncementText } from '@tickety/api-contract';
// The package's own entry by name, never a relative path: in the shell and the remotes this module
// is bundled into the app (it is not the singleton), and the router's Link must come from the one
// shared instance of @tickety/shared, not from a second copy.
import { Link } from '@tickety/shared';
import Info from 'lucide-react/icons/info';
import OctagonAlert from 'lucide-react/icons/octagon-alert';
import Wrench from 'lucide-react/icons/wrench';
import { Fragment, type ReactNode } from 'react';

/*
 * A notice of staff's System Update as readers see it: the shell's banner and the staff form's live
 * preview both render with these, so the preview is what readers will see. The text is the contract's
 * markdown subset (parseAnnouncementText). Every piece is a text node (React escapes it), so markup
 * typed into a notice shows as characters; links are only those the parser kept, this site's through
 * the router, other sites' in a new tab without the opener. Imported as
 * `@tickety/shared/announcement-text`, not from the entry (the never tree-shaken Module Federation
 * singleton): only a page with a notice needs it (docs/architecture.md, "Public pages arrive as HTML").
 */

/** A notice's colours (border, background, text) by severity, light and dark. */
export const SEVERITY_CLASSES: Record<AnnouncementSeverity, string> = {
  info: 'border-sky-300 bg-sky-50 text-sky-950 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-50',
  maintenance: 'border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50',
  critical: 'border-red-300 bg-red-50 text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-50',
};

/** A severity's icon (decorative: the severity is also written out). */
export function SeverityIcon({ severity, className = 'size-5' }: { severity: AnnouncementSeverity; className?: string }) {
  if (severity === 'info') return <Info className={`${className} text-sky-700 dark:text-sky-300`} aria-hidden="true" />;
  if (severity === 'maintenance') return <Wrench className={`${className} text-amber-700 dark:text-amber-300`} aria-hidden="true" />;
  return <OctagonAlert className={`${className} text-red-700 dark:text-red-300`} aria-hidden="true" />;
}

const LINK_CLASSES = 'font-medium underline underline-offset-2 hover:opacity-80 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-current';

function Inline({ nodes }: { nodes: AnnouncementInline[] }) {
  return (
    <>
      {nodes.map((node, index) => {
        const key = `${node.type}-${index}`;
        switch (node.type) {
          case 'text':
            return <Fragment key={key}>{node.text}</Fragment>;
          case 'break':
            return <br key={key} />;
          case 'strong':
            return (
              <strong key={key} className="font-semibold">
                <Inline nodes={node.children} />
              </strong>
            );
          case 'em':
            return (
              <em key={key}>
                <Inline nodes={node.children} />
              </em>
            );
          case 'code':
            return (
              <code key={key} className="rounded bg-black/5 px-1 font-mono text-[0.9em] dark:bg-white/10">
                {node.text}
              </code>
            );
          case 'link':
            return node.external ? (
              <a key={key} href={node.href} target="_blank" rel="noopener noreferrer" className={LINK_CLASSES}>
                <Inline nodes={node.children} />
              </a>
            ) : (
              <Link key={key} to={node.href} className={LINK_CLASSES}>
                <Inline nodes={node.children} />
              </Link>
            );
          default:
            return null;
        }
      })}
    </>
  );
}

/** A notice's text, rendered (see the file's comment). */
export function AnnouncementText({ text }: { text: string }) {
  return (
    <div className="space-y-1.5 break-words">
      {parseAnnouncementText(text).map((block, blockIndex) =>
        block.type === 'paragraph' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the blocks of one text, in order
          <p key={blockIndex}>
            <Inline nodes={block.children} />
          </p>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the blocks of one text, in order
          <ul key={blockIndex} className="list-disc space-y-0.5 pl-5">
            {block.items.map((item, itemIndex) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the items of one list, in order
              <li key={itemIndex}>
                <Inline nodes={item} />
              </li>
            ))}
          </ul>
        ),
      )}
    </div>
  );
}

/**
 * A notice's inside, as the banner and the preview show it: the severity's icon, its name (`label`,
 * in the caller's catalogue) and the text (`children`: an AnnouncementText, or a placeholder).
 */
export function AnnouncementBody({ severity, label, children }: { severity: AnnouncementSeverity; label: string; children: ReactNode }) {
  return (
    <>
      <span className="mt-0.5 shrink-0">
        <SeverityIcon severity={severity} />
      </span>
      <div className="min-w-0 flex-1">
        <p className="text-xs font-semibold tracking-wide uppercase opacity-80">{label}</p>
        <div className="mt-0.5 leading-relaxed">{children}</div>
      </div>
    </>
  );
}
