import { botInviteUrl, formatNumber, isSnowflake, Link, selectGuilds, useAppSelector, useRuntimeConfig, useSearchParams } from '@tickety/shared';
import { Alert, Avatar, buttonClasses, Card, PageHeader } from '@tickety/ui';
import Check from 'lucide-react/icons/check';
import ShieldCheck from 'lucide-react/icons/shield-check';
import TriangleAlert from 'lucide-react/icons/triangle-alert';
import { DiscordMark } from '../../components/discord-mark';
import { Container } from '../../components/layout';
import { href } from '../../lib/hrefs';
import { type MessageKey, Message, useT } from '../../lib/i18n';
import { requestedPermissions, requestedScopes } from './permissions';

/** What each OAuth scope is for (catalogue keys; `{product}` is the bot's name). */
const SCOPES: Record<string, MessageKey> = {
  bot: 'invite.scope.bot',
  'applications.commands': 'invite.scope.commands',
};

const STEPS: Array<{ title: MessageKey; text: MessageKey }> = [
  { title: 'invite.step.choose.title', text: 'invite.step.choose.text' },
  { title: 'invite.step.authorise.title', text: 'invite.step.authorise.text' },
  { title: 'invite.step.setUp.title', text: 'invite.step.setUp.text' },
];

/** Which server the link preselects: its name and icon when the signed-in user is a member. */
function PreselectedServer({ guildId }: { guildId: string }) {
  const guild = useAppSelector(selectGuilds).find((g) => g.id === guildId);
  const t = useT();
  if (!guild) {
    return (
      <Alert tone="info" className="mb-6">
        <Message k="invite.preselected" values={{ id: guildId }} components={{ code: <code className="font-mono" /> }} />
      </Alert>
    );
  }
  return (
    <div className="mb-6">
      <div className="flex items-center gap-3 rounded-xl border border-surface-200 bg-white p-4 dark:border-surface-800 dark:bg-surface-900">
        <Avatar src={guild.iconUrl} name={guild.name} shape="square" />
        <div className="min-w-0">
          <p className="text-xs font-medium tracking-wide text-surface-500 uppercase dark:text-surface-400">{t('invite.addingTo')}</p>
          <p className="truncate font-semibold text-surface-900 dark:text-surface-50">{guild.name}</p>
        </div>
        {guild.botInGuild ? <span className="ml-auto shrink-0 text-sm font-medium text-primary-700 dark:text-primary-400">{t('invite.alreadyAdded')}</span> : null}
      </div>
      {guild.canManage ? null : (
        <Alert tone="warning" icon={<TriangleAlert aria-hidden="true" className="size-5" />} className="mt-3">
          {t('invite.needsManageServer')}
        </Alert>
      )}
    </div>
  );
}

export default function InvitePage() {
  const config = useRuntimeConfig();
  const t = useT();
  const [params] = useSearchParams();
  const raw = params.get('guild_id');
  const guildId = isSnowflake(raw) ? raw : undefined;
  const url = botInviteUrl(config, guildId);
  const permissions = requestedPermissions(url, t);
  const scopes = requestedScopes(url);
  const admin = permissions.some((p) => p.bit === 3);

  return (
    <Container className="py-12 sm:py-16">
      <div className="grid gap-12 lg:grid-cols-[1fr_1.2fr]">
        <div>
          <PageHeader
            title={t('invite.title', { product: config.productName })}
            description={t('invite.lead')}
          />
          {raw !== null && !guildId ? (
            <Alert tone="warning" className="mb-6">
              {t('invite.invalidServerId')}
            </Alert>
          ) : null}
          {guildId ? <PreselectedServer guildId={guildId} /> : null}
          <a href={url} className={buttonClasses({ variant: 'discord', size: 'lg', className: 'w-full sm:w-auto' })}>
            <DiscordMark className="size-5" />
            {t('common.addToDiscord')}
          </a>
          <ol className="mt-10 space-y-5">
            {STEPS.map(({ title, text }, i) => (
              <li key={title} className="flex gap-4">
                <span aria-hidden="true" className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary-600 text-sm font-bold text-white">
                  {formatNumber(i + 1)}
                </span>
                <div className="min-w-0">
                  <p className="font-semibold text-surface-900 dark:text-surface-50">{t(title)}</p>
                  <p className="mt-0.5 text-sm text-surface-600 dark:text-surface-400">{t(text)}</p>
                </div>
              </li>
            ))}
          </ol>
          <p className="mt-8 text-sm text-surface-600 dark:text-surface-400">
            <Message
              k="invite.alreadyAddedPrompt"
              components={{ link: <Link to={href('/dashboard')} className="font-medium text-primary-700 underline underline-offset-2 dark:text-primary-400" /> }}
            />
          </p>
        </div>

        <Card className="p-6 sm:p-8">
          <h2 className="flex items-center gap-2 text-lg font-semibold text-surface-900 dark:text-surface-50">
            <ShieldCheck aria-hidden="true" className="size-5 text-primary-600 dark:text-primary-400" />
            {t('invite.permissions.title')}
          </h2>
          {admin ? (
            <Alert tone="warning" className="mt-4">
              {t('invite.permissions.administrator', { product: config.productName })}
            </Alert>
          ) : null}
          {permissions.length > 0 ? (
            <ul className="mt-5 divide-y divide-surface-200 dark:divide-surface-800">
              {permissions.map((permission) => (
                <li key={permission.bit} className="flex gap-3 py-3">
                  <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary-600 dark:text-primary-400" />
                  <div>
                    <p className="text-sm font-semibold text-surface-900 dark:text-surface-50">{permission.name}</p>
                    <p className="mt-0.5 text-sm text-surface-600 dark:text-surface-400">{permission.why}</p>
                  </div>
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-4 text-sm text-surface-600 dark:text-surface-400">
              {t('invite.permissions.none')}
            </p>
          )}
          {scopes.length > 0 ? (
            <>
              <h3 className="mt-6 text-sm font-semibold text-surface-900 dark:text-surface-50">{t('invite.scopes.title')}</h3>
              <ul className="mt-2 space-y-1.5 text-sm text-surface-600 dark:text-surface-400">
                {scopes.map((scope) => (
                  <li key={scope}>
                    <code className="rounded bg-surface-100 px-1.5 py-0.5 font-mono text-xs text-surface-800 dark:bg-surface-800 dark:text-surface-200">{scope}</code>{' '}
                    {t((Object.hasOwn(SCOPES, scope) && SCOPES[scope]) || 'invite.scope.other', { product: config.productName })}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          <p className="mt-6 border-t border-surface-200 pt-4 text-sm text-surface-600 dark:border-surface-800 dark:text-surface-400">
            {t('invite.permissions.visibility')}
          </p>
        </Card>
      </div>
    </Container>
  );
}
