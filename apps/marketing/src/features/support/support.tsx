import { formatNumber, Link, selectGuilds, selectIsAuthenticated, selectManageableGuilds, type Translate, useAppSelector, useRuntimeConfig } from '@tickety/shared';
import { Alert, buttonClasses, Card, PageHeader } from '@tickety/ui';
import type { LucideIcon } from 'lucide-react';
import Activity from 'lucide-react/icons/activity';
import BookOpen from 'lucide-react/icons/book-open';
import Info from 'lucide-react/icons/info';
import LifeBuoy from 'lucide-react/icons/life-buoy';
import type { ReactNode } from 'react';
import { DiscordMark } from '../../components/discord-mark';
import { Faq, type FaqItem } from '../../components/faq';
import { Container, IconBadge } from '../../components/layout';
import { ExternalLink } from '../../components/links';
import { href } from '../../lib/hrefs';
import { type MessageKey, Message, useT } from '../../lib/i18n';

/** A full-width button whose label may wrap (the cards are narrow on tablets, and German labels are long). */
const WRAPPING_BUTTON = 'w-full h-auto! min-h-10 py-2 text-center whitespace-normal!';

/**
 * True when the configured support URL is this very page (the API's default without SUPPORT_URL).
 * Prerendered on the server, where there is no page to compare origins with, its path decides.
 */
function pointsHere(url: string): boolean {
  const page = typeof window === 'undefined' ? null : window.location;
  try {
    const target = new URL(url, page?.href ?? 'http://prerender.invalid');
    return (!page || target.origin === page.origin) && target.pathname.replace(/\/+$/, '') === href('/support');
  } catch {
    return true;
  }
}

function Channel({ icon: Icon, title, children, action }: { icon: LucideIcon; title: string; children: ReactNode; action: ReactNode }) {
  return (
    <Card className="flex h-full flex-col p-6">
      <IconBadge>
        <Icon className="size-5" />
      </IconBadge>
      <h2 className="mt-4 text-lg font-semibold text-surface-900 dark:text-surface-50">{title}</h2>
      <div className="mt-2 flex-1 text-sm text-surface-600 dark:text-surface-400">{children}</div>
      <div className="mt-5">{action}</div>
    </Card>
  );
}

const strong = <strong />;

/** The support page's questions, in the active language (`t` from the page's `useT()`). */
function supportFaq(t: Translate<MessageKey>, product: string): FaqItem[] {
  return [
    {
      question: t('supportFaq.missingServer.question'),
      answer: (
        <>
          <p>
            <Message k="supportFaq.missingServer.who" components={{ strong }} />
          </p>
          <p>
            <Message k="supportFaq.missingServer.refresh" components={{ strong, link: <Link to={href('/dashboard')} /> }} />
          </p>
        </>
      ),
    },
    {
      question: t('supportFaq.noAccess.question'),
      answer: <p>{t('supportFaq.noAccess.answer')}</p>,
    },
    {
      question: t('supportFaq.botSilent.question'),
      answer: (
        <>
          <p>
            <Message k="supportFaq.botSilent.permissions" components={{ link: <Link to={href('/invite')} /> }} />
          </p>
          <p>
            <Message k="supportFaq.botSilent.status" components={{ link: <Link to={href('/status')} /> }} />
          </p>
        </>
      ),
    },
    {
      question: t('supportFaq.transcript.question'),
      answer: <p>{t('supportFaq.transcript.answer', { product })}</p>,
    },
    {
      question: t('supportFaq.undo.question'),
      answer: (
        <p>
          <Message k="supportFaq.undo.answer" components={{ strong }} />
        </p>
      ),
    },
    {
      question: t('supportFaq.subscription.question'),
      answer: (
        <p>
          <Message k="supportFaq.subscription.answer" components={{ billing: <Link to={href('/billing')} />, refunds: <Link to={href('/refund-policy')} /> }} />
        </p>
      ),
    },
    {
      question: t('supportFaq.deleteData.question'),
      answer: (
        <p>
          <Message k="supportFaq.deleteData.answer" components={{ link: <Link to={href('/privacy-policy')} /> }} />
        </p>
      ),
    },
  ];
}

/** Shown to a signed-in user who cannot manage any server: the top support question, answered in place. */
function NoManageableServers() {
  const signedIn = useAppSelector(selectIsAuthenticated);
  const guilds = useAppSelector(selectGuilds);
  const manageable = useAppSelector(selectManageableGuilds);
  const t = useT();
  if (!signedIn || manageable.length > 0) return null;
  return (
    <Alert tone="info" icon={<Info aria-hidden="true" className="size-5" />} title={t('support.noServers.title')} className="mb-8">
      <Message
        k="support.noServers.text"
        values={{ count: guilds.length, countText: formatNumber(guilds.length) }}
        components={{ link: <Link to={href('/dashboard')} className="font-semibold underline" /> }}
      />
    </Alert>
  );
}

export default function SupportPage() {
  const config = useRuntimeConfig();
  const t = useT();
  const hasServer = !pointsHere(config.supportUrl);
  return (
    <Container className="py-12 sm:py-16">
      <PageHeader title={t('title.support')} description={t('support.lead', { product: config.productName })} />
      <NoManageableServers />

      <div className="grid gap-6 md:grid-cols-3">
        <Channel
          icon={LifeBuoy}
          title={t('support.server.title')}
          action={
            hasServer ? (
              <ExternalLink href={config.supportUrl} className={buttonClasses({ variant: 'discord', className: WRAPPING_BUTTON })}>
                <DiscordMark className="size-5" />
                {t('support.server.join')}
              </ExternalLink>
            ) : (
              <p className="text-sm text-surface-500 dark:text-surface-400">{t('support.server.missing')}</p>
            )
          }
        >
          {t('support.server.text')}
        </Channel>
        <Channel
          icon={BookOpen}
          title={t('support.docs.title')}
          action={
            <ExternalLink href={config.docsUrl} className={buttonClasses({ variant: 'secondary', className: WRAPPING_BUTTON })}>
              {t('support.docs.read')}
            </ExternalLink>
          }
        >
          {t('support.docs.text')}
        </Channel>
        <Channel
          icon={Activity}
          title={t('support.status.title')}
          action={
            <Link to={href('/status')} className={buttonClasses({ variant: 'secondary', className: WRAPPING_BUTTON })}>
              {t('support.status.check')}
            </Link>
          }
        >
          {t('support.status.text')}
        </Channel>
      </div>

      <div className="mt-16 grid gap-12 lg:grid-cols-[2fr_1fr]">
        <section aria-labelledby="support-faq">
          <h2 id="support-faq" className="text-2xl font-bold tracking-tight text-surface-900 dark:text-surface-50">
            {t('support.faq.title')}
          </h2>
          <Faq items={supportFaq(t, config.productName)} className="mt-4" />
        </section>
        <aside aria-labelledby="support-tips" className="h-fit rounded-xl bg-surface-100 p-6 dark:bg-surface-900">
          <h2 id="support-tips" className="font-semibold text-surface-900 dark:text-surface-50">
            {t('support.tips.title')}
          </h2>
          <ul className="mt-3 list-disc space-y-2 pl-5 text-sm text-surface-700 dark:text-surface-300">
            <li>
              <Message k="support.tips.serverId" components={{ strong }} />
            </li>
            <li>{t('support.tips.expected')}</li>
            <li>{t('support.tips.channel')}</li>
            <li>
              <Message k="support.tips.never" components={{ strong }} />
            </li>
          </ul>
        </aside>
      </div>
    </Container>
  );
}
