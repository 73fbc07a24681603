/** The server layout's refusals, in a chunk of their own (server-layout.tsx loads them when shown). */
import { ACCESS_AREAS, type AccessArea } from '@tickety/api-contract';
import { type ServerAccess as Access, botInviteUrl, errorText, evaluateServerArea, refreshGuilds, siteHref, useAppDispatch, useI18nRevision, useRuntimeConfig } from '@tickety/shared';
import { Button, buttonClasses, EmptyState } from '@tickety/ui';
import { Bot, ShieldX } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useT } from '../lib/i18n';
import { itemLabel, useSidebar } from './server-layout';

/** The API refused the server (the overlay shows it too): its reason, and the way back. */
export function NoAccess({ error }: { error: unknown }) {
  const t = useT();
  return (
    <EmptyState
      icon={<ShieldX aria-hidden="true" className="size-6" />}
      title={t('server.noAccess.title')}
      description={error ? errorText(error) : t('server.noAccess.description')}
    >
      <Link to={siteHref('/dashboard')} className={buttonClasses({ variant: 'secondary' })}>
        {t('actions.selectServer')}
      </Link>
    </EmptyState>
  );
}

export function InviteTheBot({ server, name, recheck }: { server: string; name: string; recheck: () => Promise<boolean> }) {
  const config = useRuntimeConfig();
  const dispatch = useAppDispatch();
  const t = useT();
  // What the last refresh found: kept as what to say, so it is said in the language shown.
  const [problem, setProblem] = useState<null | { notYet: true } | { failed: string | undefined }>(null);
  const [busy, setBusy] = useState(false);
  return (
    <EmptyState
      icon={<Bot aria-hidden="true" className="size-6" />}
      title={t('server.invite.title', { product: config.productName, server: name })}
      description={t('server.invite.description', { server: name })}
    >
      <a href={botInviteUrl(config, server)} target="_blank" rel="noopener noreferrer" className={buttonClasses({ variant: 'discord' })}>
        {t('server.invite.button')}
      </a>
      <Button
        variant="secondary"
        loading={busy}
        onClick={async () => {
          setBusy(true);
          const result = await dispatch(refreshGuilds());
          if (refreshGuilds.rejected.match(result)) {
            setBusy(false);
            setProblem({ failed: result.payload ? errorText(result.payload) : undefined });
            return;
          }
          const added = await recheck();
          setBusy(false);
          setProblem(added ? null : { notYet: true });
        }}
      >
        {t('server.invite.refresh')}
      </Button>
      {problem ? (
        <p role="status" className="w-full text-sm text-amber-700 dark:text-amber-400">
          {'notYet' in problem ? t('server.invite.notYet', { product: config.productName, server: name }) : (problem.failed ?? t('server.invite.refreshFailed'))}
        </p>
      ) : null}
    </EmptyState>
  );
}

/** The refusal of a server page the user's roles do not open (see OpenServer). */
export function AreaRefused({ server, name, area, access }: { server: string; name: string; area: AccessArea; access: Access }) {
  const t = useT();
  const { remote, items } = useSidebar();
  useI18nRevision();
  const areaName = t(`server.area.${area}`);
  const granted = ACCESS_AREAS.flatMap((area) => {
    const level = access.areas[area];
    return level ? [t(`server.areaLevel.${level}`, { area: t(`server.area.${area}`) })] : [];
  }).join(', ');
  // Where to go instead: the first page of the sidebar the user can open.
  const open = items.find((item) => evaluateServerArea(item.area, access).level !== 'refused');
  return (
    <EmptyState
      icon={<ShieldX aria-hidden="true" className="size-6" />}
      title={t('server.areaRefused.title', { area: areaName })}
      description={
        <>
          {access.grantedBy.length > 0 ? (
            <span className="block">{t('server.areaRefused.granted', { server: name, count: access.grantedBy.length, roles: access.grantedBy.join(', '), granted })}</span>
          ) : null}
          <span className="mt-2 block">{t('server.areaRefused.who', { area: areaName })}</span>
        </>
      }
    >
      {open ? (
        <Link to={`${siteHref('/dashboard/:server', { server })}/${open.segment}`} className={buttonClasses()}>
          {t('server.areaRefused.open', { page: itemLabel(remote, open) })}
        </Link>
      ) : null}
      <Link to={siteHref('/dashboard')} className={buttonClasses({ variant: 'secondary' })}>
        {t('actions.selectServer')}
      </Link>
    </EmptyState>
  );
}
