/**
 * The transcript as one standalone HTML file: the same message components as the page, rendered
 * into an inert document (no browsing context: nothing in it loads or runs) in chunks with progress,
 * serialised, and put together with the page's stylesheets and a Content-Security-Policy that
 * allows no script at all. Pictures stored by this service are included as data URIs (up to a
 * budget); everything else links to this site by its full address. Transcript text is hostile:
 * React writes it as text, the serialiser escapes it, and the file's CSP is a second wall.
 */
import type { TranscriptMessage, TranscriptV2 } from '@tickety/api-contract';
import { buildUrl, formatDateTime } from '@tickety/shared';
import type { ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { type DiscordNames, DiscordNamesContext, StaticMarkupContext } from '../../../components/discord/markdown-view';
import { DiscordSurface } from '../../../components/discord/message-preview';
import { t } from '../i18n';
import { type FileMode, Message, type Users } from '../../../components/discord/message';
import { isOwnFile, type MessageLookup, startsGroup } from '../../../components/discord/message-model';

/** The file's policy: no script, no frame, no form, no request; inline styles and embedded pictures only. */
export const FILE_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/** Pictures included as data URIs, at most this many bytes in all (the rest are links). */
const IMAGE_BUDGET_BYTES = 20 * 1024 * 1024;
const CHUNK = 400;

interface StandaloneInput {
  transcript: TranscriptV2;
  names: DiscordNames;
  users: Users;
  byId: MessageLookup;
  /** The page's header (ticket, opener, dates), rendered once at the top. */
  header: ReactNode;
}

/** What is done so far, 0..1. */
type Progress = (fraction: number) => void;

const nextTask = () => new Promise<void>((ok) => setTimeout(ok, 0));

/** The page's own stylesheets as text (a sheet another origin serves without CORS is skipped). */
function pageCss(): string {
  const parts: string[] = [];
  for (const sheet of Array.from(document.styleSheets)) {
    try {
      for (const rule of Array.from(sheet.cssRules)) parts.push(rule.cssText);
    } catch {
      // cssRules of a cross-origin sheet throws; the file is still readable without it.
    }
  }
  return parts.join('\n').replaceAll('</', '<\\/');
}

async function dataUri(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:${blob.type || 'application/octet-stream'};base64,${btoa(binary)}`;
}

/** The service's own copies of pictures, fetched with the viewer's session, within the budget. */
async function embeddedImages(messages: readonly TranscriptMessage[], signal: AbortSignal): Promise<Map<string, string>> {
  const images = new Map<string, string>();
  let budget = IMAGE_BUDGET_BYTES;
  for (const m of messages) {
    for (const a of m.attachments) {
      if (!isOwnFile(a.url) || !a.contentType?.startsWith('image/') || images.has(a.url) || a.size > budget) continue;
      const answer = await fetch(buildUrl(a.url), { credentials: 'include', signal }).catch(() => null);
      if (!answer?.ok) continue;
      const blob = await answer.blob();
      if (!blob.type.startsWith('image/') || blob.size > budget) continue;
      budget -= blob.size;
      images.set(a.url, await dataUri(blob));
    }
  }
  return images;
}

const MARK = 'data-tk-messages';

/**
 * Builds the file. Rendering is cut into chunks with a pause between them, so the page stays
 * responsive and `progress` moves; `signal` stops it.
 */
export async function standaloneHtml(input: StandaloneInput, progress: Progress, signal: AbortSignal): Promise<Blob> {
  const { transcript, names, users, byId, header } = input;
  const messages = transcript.messages;
  const file: FileMode = { images: await embeddedImages(messages, signal), origin: location.origin };
  progress(0.05);

  const inert = document.implementation.createHTMLDocument('');
  const container = inert.createElement('div');
  inert.body.append(container);
  const root = createRoot(container);
  const render = (node: ReactNode) => {
    flushSync(() =>
      root.render(
        <StaticMarkupContext.Provider value={true}>
          <DiscordNamesContext.Provider value={names}>{node}</DiscordNamesContext.Provider>
        </StaticMarkupContext.Provider>,
      ),
    );
    return container.innerHTML;
  };
  try {
    const frame = render(
      <div className="tk-remote-dashboard">
        <main className="mx-auto w-full max-w-5xl p-4 sm:p-8">
          {header}
          <p className="mt-2 text-xs text-surface-500 dark:text-surface-400">{t('transcript.v2.file.saved', { when: formatDateTime(new Date().toISOString()) })}</p>
          <DiscordSurface theme="dark" className="mt-4 pb-3">
            <div {...{ [MARK]: '' }} />
          </DiscordSurface>
        </main>
      </div>,
    );
    const cut = frame.indexOf(`<div ${MARK}=""></div>`);
    if (cut < 0) throw new Error('the file frame has no place for the messages');
    const parts: BlobPart[] = [frame.slice(0, cut)];
    for (let i = 0; i < messages.length; i += CHUNK) {
      if (signal.aborted) throw signal.reason;
      parts.push(render(messages.slice(i, i + CHUNK).map((m, j) => <Message key={m.id} message={m} grouped={!startsGroup(messages, i + j)} users={users} byId={byId} file={file} />)));
      progress(0.05 + (0.95 * Math.min(messages.length, i + CHUNK)) / Math.max(1, messages.length));
      await nextTask();
    }
    parts.push(frame.slice(cut + `<div ${MARK}=""></div>`.length));

    const head = inert.createElement('head');
    const meta = (attrs: Record<string, string>) => {
      const el = inert.createElement('meta');
      for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
      head.append(el);
    };
    meta({ charset: 'utf-8' });
    meta({ 'http-equiv': 'Content-Security-Policy', content: FILE_CSP });
    meta({ name: 'referrer', content: 'no-referrer' });
    meta({ name: 'viewport', content: 'width=device-width, initial-scale=1' });
    const title = inert.createElement('title');
    title.textContent = t('transcript.v2.file.title', { number: transcript.ticket.number, server: transcript.server.name });
    head.append(title);
    const style = inert.createElement('style');
    style.textContent = pageCss();
    head.append(style);
    const dark = document.documentElement.classList.contains('dark');
    const lang = document.documentElement.lang || 'en';
    return new Blob(
      [
        `<!DOCTYPE html>\n<html lang="${lang.replace(/[^A-Za-z-]/g, '')}"${dark ? ' class="dark"' : ''}>${head.outerHTML}<body class="bg-surface-50 text-surface-900 dark:bg-surface-950 dark:text-surface-100">`,
        ...parts,
        '</body></html>\n',
      ],
      { type: 'text/html;charset=utf-8' },
    );
  } finally {
    root.unmount();
  }
}
