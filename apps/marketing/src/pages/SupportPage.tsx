import Activity from 'lucide-react/icons/activity';
import BookOpen from 'lucide-react/icons/book-open';
import Info from 'lucide-react/icons/info';
import LifeBuoy from 'lucide-react/icons/life-buoy';
import type { LucideIcon } from 'lucide-react';
import { Link, selectGuilds, selectIsAuthenticated, selectManageableGuilds, useAppSelector, useRuntimeConfig } from '@tickety/shared';
import { Alert, buttonClasses, Card, PageHeader } from '@tickety/ui';
import type { ReactNode } from 'react';
import { type FaqItem, Faq } from '../components/faq';
import { Container, IconBadge } from '../components/layout';
import { ExternalLink } from '../components/links';
import { DiscordMark } from '../components/discord-mark';

/** True when the configured support URL is this very page (the API's default without SUPPORT_URL). */
function pointsHere(url: string): boolean {
  try {
    const u = new URL(url, window.location.href);
    return u.origin === window.location.origin && u.pathname.replace(/\/+$/, '') === '/support';
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

function supportFaq(product: string): FaqItem[] {
  return [
    {
      question: "Why can't I see my server in the dashboard?",
      answer: (
        <>
          <p>
            The dashboard lists the servers you can manage: those you own, and those where one of your roles has the <strong>Administrator</strong> or{' '}
            <strong>Manage Server</strong> permission. Being a moderator without one of these is not enough.
          </p>
          <p>
            Discord tells us your servers when you sign in. If you were just given the role, joined the server or created it, press <strong>Refresh</strong> on{' '}
            <Link to="/dashboard">Manage Servers</Link> (once every few seconds). Still missing? Sign out and in again, and check that you used the right Discord
            account.
          </p>
        </>
      ),
    },
    {
      question: 'The dashboard says I don’t have access to a server. Why?',
      answer: (
        <p>
          Your access is checked again on every visit, so losing the role (or Discord changing it) locks the server. Ask the owner for a role with Manage Server, or
          to grant you dashboard access by role in the server&apos;s settings on the dashboard. Then refresh your server list.
        </p>
      ),
    },
    {
      question: 'The bot does not create ticket channels or answer. What should I check?',
      answer: (
        <>
          <p>
            Most often the bot lost a permission. In Server Settings, check that its role still has the permissions listed on the{' '}
            <Link to="/invite">invite page</Link>, especially Manage Channels and Manage Roles, and that the ticket category does not deny them.
          </p>
          <p>
            Also check the <Link to="/status">status page</Link>: if a shard is down, the bot is offline for some servers until it reconnects.
          </p>
        </>
      ),
    },
    {
      question: 'Where do I find the transcript of a closed ticket?',
      answer: (
        <p>
          When a ticket closes, {product} saves its transcript and posts a link in the panel&apos;s transcript channel. The link opens on the web: the person who
          opened the ticket sees their own transcripts, your support team sees all of them.
        </p>
      ),
    },
    {
      question: 'I changed something by mistake. Can I undo it?',
      answer: (
        <p>
          Yes. Every saved configuration is a version: open the server in the dashboard, go to <strong>Restore Configs</strong>, compare any version with the
          current one and restore it. <strong>Web Logs</strong> shows who changed what, and when.
        </p>
      ),
    },
    {
      question: 'How do I cancel or change my subscription?',
      answer: (
        <p>
          From your <Link to="/billing">billing page</Link>, whichever provider you paid with. For refunds, see the <Link to="/refund-policy">refund policy</Link>.
        </p>
      ),
    },
    {
      question: 'How do I get my data deleted?',
      answer: (
        <p>
          The <Link to="/privacy-policy">privacy policy</Link> explains what we keep and for how long. Ask in the support server and we will delete your account data;
          server owners can remove the bot to stop all new data from their server.
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
  if (!signedIn || manageable.length > 0) return null;
  return (
    <Alert tone="info" icon={<Info aria-hidden="true" className="size-5" />} title="None of your servers can be managed with this account" className="mb-8">
      You are in {guilds.length} {guilds.length === 1 ? 'server' : 'servers'}, but you own none of them and hold neither Administrator nor Manage Server in any. Ask
      a server&apos;s owner for one of these permissions, then refresh your servers on the <Link to="/dashboard" className="font-semibold underline">dashboard</Link>.
    </Alert>
  );
}

export default function SupportPage() {
  const config = useRuntimeConfig();
  const hasServer = !pointsHere(config.supportUrl);
  return (
    <Container className="py-12 sm:py-16">
      <PageHeader title="Support" description={`Questions about ${config.productName}? Here is how to get an answer quickly.`} />
      <NoManageableServers />

      <div className="grid gap-6 md:grid-cols-3">
        <Channel
          icon={LifeBuoy}
          title="Support server"
          action={
            hasServer ? (
              <ExternalLink href={config.supportUrl} className={buttonClasses({ variant: 'discord', className: 'w-full' })}>
                <DiscordMark className="size-5" />
                Join the support server
              </ExternalLink>
            ) : (
              <p className="text-sm text-surface-500 dark:text-surface-400">This site has no support server invite configured yet.</p>
            )
          }
        >
          Talk to our team and other server admins in Discord. Open a ticket there for account and billing questions; it is the fastest way to reach us.
        </Channel>
        <Channel
          icon={BookOpen}
          title="Documentation"
          action={
            <ExternalLink href={config.docsUrl} className={buttonClasses({ variant: 'secondary', className: 'w-full' })}>
              Read the docs
            </ExternalLink>
          }
        >
          Step-by-step guides for every setting: panels, forms, support roles, transcripts, statistics and premium.
        </Channel>
        <Channel
          icon={Activity}
          title="Service status"
          action={
            <Link to="/status" className={buttonClasses({ variant: 'secondary', className: 'w-full' })}>
              Check the status
            </Link>
          }
        >
          Something not working? See whether the bot, the dashboard or the database has a known problem before you troubleshoot.
        </Channel>
      </div>

      <div className="mt-16 grid gap-12 lg:grid-cols-[2fr_1fr]">
        <section aria-labelledby="support-faq">
          <h2 id="support-faq" className="text-2xl font-bold tracking-tight text-surface-900 dark:text-surface-50">
            Common questions
          </h2>
          <Faq items={supportFaq(config.productName)} className="mt-4" />
        </section>
        <aside aria-labelledby="support-tips" className="h-fit rounded-xl bg-surface-100 p-6 dark:bg-surface-900">
          <h2 id="support-tips" className="font-semibold text-surface-900 dark:text-surface-50">
            Before you ask
          </h2>
          <ul className="mt-3 list-disc space-y-2 pl-5 text-sm text-surface-700 dark:text-surface-300">
            <li>
              Have your <strong>server ID</strong> ready: turn on Developer Mode in Discord (Settings, Advanced), then right-click the server and choose Copy Server
              ID.
            </li>
            <li>Say what you expected and what happened instead; a screenshot helps.</li>
            <li>Mention the panel or ticket channel involved, if any.</li>
            <li>
              Our team will <strong>never</strong> ask for your password, a login code or a token.
            </li>
          </ul>
        </aside>
      </div>
    </Container>
  );
}
