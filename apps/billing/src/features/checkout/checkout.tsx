import type { FastspringCheckoutAnswer, Plan } from '@tickety/api-contract';
import { failureText, Link, Navigate, selectSub, useAppSelector, usePlansQuery, useSearchParams } from '@tickety/shared';
import { Alert, Button, buttonClasses, Card, LoadFailed, PageHeader, Skeleton, Spinner } from '@tickety/ui';
import ExternalLink from 'lucide-react/icons/external-link';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { Activation, useActivated } from '../../components/activation';
import { PlanSummary } from '../../components/plan-summary';
import { href } from '../../lib/hrefs';
import { useT } from '../../lib/i18n';
import { PROVIDERS } from '../../lib/providers';
import { useFastspringCheckoutMutation, useRedirectCheckoutMutation } from './api';
import { loadFastspring, onFastspringPopupClosed } from './fastspring';

/** The providers this page sells through (Paddle's checkout is /billing/paddleBuy). */
const CHECKOUT_PROVIDERS = ['fastspring', 'chargebee', 'discord'] as const;
type CheckoutProvider = (typeof CHECKOUT_PROVIDERS)[number];

function isCheckoutProvider(value: string | null): value is CheckoutProvider {
  return value !== null && (CHECKOUT_PROVIDERS as readonly string[]).includes(value);
}

/** The price a Chargebee checkout was started for, to try again after the buyer left it (Chargebee's return address names no price). */
const CHARGEBEE_PRICE_KEY = 'tickety.billing.chargebeePrice';
function rememberChargebeePrice(priceId: string): void {
  try {
    sessionStorage.setItem(CHARGEBEE_PRICE_KEY, priceId);
  } catch {
    // Storage refused (private mode): trying again starts from the plans.
  }
}
function rememberedChargebeePrice(): string | null {
  try {
    return sessionStorage.getItem(CHARGEBEE_PRICE_KEY);
  } catch {
    return null;
  }
}

/**
 * /billing/checkout: a purchase through FastSpring, Chargebee or Discord.
 * - `?provider=<provider>&price=<catalogue price id>` starts it: FastSpring's popup on this page,
 *   Chargebee's hosted checkout (the browser goes there and comes back), or Discord's store (a link
 *   the buyer opens; this page waits for Discord's confirmation).
 * - `?provider=<provider>&ref=<reference>` shows where it stands ("activating" until the provider's
 *   webhook has landed): FastSpring's order id, Chargebee's hosted page id, Discord's SKU id. The
 *   address becomes this once the provider has the order, so a refresh never buys twice.
 * - `?provider=chargebee&id=<hosted page>&state=succeeded|cancelled` is Chargebee's return.
 */
export default function CheckoutPage() {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const provider = params.get('provider');
  const price = params.get('price');
  const chargebeeState = provider === 'chargebee' ? params.get('state') : null;
  const chargebeePage = provider === 'chargebee' && chargebeeState === 'succeeded' ? params.get('id') : null;
  const reference = params.get('ref') ?? chargebeePage;

  // Chargebee's successful return: the address names the hosted page as the reference (a refresh keeps it).
  useEffect(() => {
    if (chargebeePage && !params.get('ref')) setParams({ provider: 'chargebee', ref: chargebeePage }, { replace: true });
  }, [chargebeePage, params, setParams]);

  if (provider === 'paddle') {
    return <Navigate replace to={reference ? href('/billing/paddleBuy', {}, { txn: reference }) : href('/billing/paddleBuy', {}, price ? { price } : {})} />;
  }

  const name = isCheckoutProvider(provider) ? PROVIDERS[provider].name : null;
  let body: ReactNode;
  if (!isCheckoutProvider(provider)) {
    body = <NoPlan title={t('checkout.noProvider.title')} body={t('checkout.noProvider.body')} />;
  } else if (reference) {
    body =
      provider === 'discord' ? (
        <Activation provider="discord" reference={reference} title={t('checkout.discord.waiting.title')} body={t('checkout.discord.waiting.body')} />
      ) : (
        <Activation provider={provider} reference={reference} body={t('checkout.activating.body', { name: name! })} />
      );
  } else if (chargebeeState && chargebeeState !== 'succeeded') {
    body = <ChargebeeLeft />;
  } else if (!price) {
    body = <NoPlan title={t('paddleBuy.noPlan.title')} body={t('paddleBuy.noPlan.body')} />;
  } else {
    body = <Purchase provider={provider} priceId={price} />;
  }

  return (
    <div>
      <PageHeader
        title={t('title.checkout')}
        description={name ? t('checkout.description', { name }) : t('checkout.descriptionAny')}
        actions={
          <Link to={href('/premium-purchase')} className={buttonClasses({ variant: 'secondary' })}>
            {t('paddleBuy.comparePlans')}
          </Link>
        }
      />
      {body}
    </div>
  );
}

function NoPlan({ title, body }: { title: string; body: string }) {
  const t = useT();
  return (
    <Alert tone="warning" title={title}>
      {body}{' '}
      <Link to={href('/premium-purchase')} className="font-medium underline underline-offset-2">
        {t('paddleBuy.comparePlans')}
      </Link>
    </Alert>
  );
}

/** The plan of the price in the address (it must be one the provider sells), then that provider's checkout. */
function Purchase({ provider, priceId }: { provider: CheckoutProvider; priceId: string }) {
  const t = useT();
  const { data: plans, isLoading, error, refetch } = usePlansQuery();
  const sub = useAppSelector(selectSub);
  const found = plans
    ?.flatMap((plan) => plan.providerPrices.filter((p) => p.provider === provider && p.id === priceId).map((p) => ({ plan, interval: p.interval })))
    .at(0);

  if (isLoading) {
    return (
      <div className="space-y-4" aria-busy="true">
        <Skeleton className="h-32" />
        <Skeleton className="h-24" />
      </div>
    );
  }
  if (!plans) return <LoadFailed title={t('premium.plans.loadFailed')} reason={failureText(error)} retryLabel={t('premium.plans.retry')} onRetry={() => void refetch()} />;
  if (!found) return <NoPlan title={t('paddleBuy.noPlan.title')} body={t('paddleBuy.noPlan.body')} />;
  return (
    <div className="space-y-6">
      {sub?.premium ? (
        <Alert tone="info" title={t('paddleBuy.already.title')}>
          {t('paddleBuy.already.body')}
        </Alert>
      ) : null}
      <PlanSummary plan={found.plan} interval={found.interval} />
      {provider === 'fastspring' ? <FastspringCheckout priceId={priceId} /> : provider === 'chargebee' ? <ChargebeeCheckout priceId={priceId} /> : <DiscordCheckout priceId={priceId} plan={found.plan} />}
    </div>
  );
}

/** Runs `start` once when the component mounts (a checkout the address asks for starts by itself). */
function useStartOnce(start: () => void) {
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    start();
  }, [start]);
}

/** A waiting line (announced politely). */
function Working({ children }: { children: ReactNode }) {
  return (
    <Card className="flex items-center gap-3 p-5 text-sm text-surface-700 sm:p-6 dark:text-surface-300" role="status" aria-live="polite">
      <Spinner size="sm" label={null} />
      <span>{children}</span>
    </Card>
  );
}

type FastspringPhase = 'starting' | 'open' | 'closed' | 'scriptFailed' | 'failed';

/**
 * FastSpring's popup: the checkout data from the API, the Store Builder Library (loaded once), the
 * secure payload the API encrypted for the signed-in user (its product, and the reference tying the
 * order to them: the page adds nothing), then the popup. When it closes with an order, the address
 * becomes ?provider=fastspring&ref=<order> (activation); without one, nothing was bought.
 */
function FastspringCheckout({ priceId }: { priceId: string }) {
  const t = useT();
  const [, setParams] = useSearchParams();
  const [prepare, { error, reset }] = useFastspringCheckoutMutation();
  const [phase, setPhase] = useState<FastspringPhase>('starting');
  const retry = useRef<HTMLButtonElement>(null);

  useEffect(
    () =>
      onFastspringPopupClosed((order) => {
        if (order) setParams({ provider: 'fastspring', ref: order.id }, { replace: true });
        else setPhase('closed');
      }),
    [setParams],
  );
  // The popup closed, or the checkout could not open: the way to try again has the focus.
  useEffect(() => {
    if (phase === 'closed' || phase === 'scriptFailed' || phase === 'failed') retry.current?.focus();
  }, [phase]);

  const start = useCallback(async () => {
    reset();
    setPhase('starting');
    let data: FastspringCheckoutAnswer;
    try {
      data = await prepare({ priceId }).unwrap();
    } catch {
      setPhase('failed');
      return;
    }
    try {
      const builder = await loadFastspring(data);
      builder.secure(data.securePayload, data.secureKey);
      builder.checkout();
      setPhase('open');
    } catch {
      setPhase('scriptFailed');
    }
  }, [prepare, priceId, reset]);
  const startNow = useCallback(() => void start(), [start]);
  useStartOnce(startNow);

  const tryAgain = (
    <Button ref={retry} onClick={startNow}>
      {t('checkout.tryAgain')}
    </Button>
  );
  switch (phase) {
    case 'starting':
      return <Working>{t('checkout.fastspring.opening')}</Working>;
    case 'open':
      return (
        <Card className="p-5 text-sm text-surface-700 sm:p-6 dark:text-surface-300" role="status" aria-live="polite">
          <p>{t('checkout.fastspring.open')}</p>
          <p className="mt-2 text-xs text-surface-500 dark:text-surface-400">{t('checkout.fastspring.note')}</p>
        </Card>
      );
    case 'closed':
      return (
        <Alert tone="info" title={t('checkout.fastspring.closed.title')} actions={tryAgain}>
          {t('checkout.fastspring.closed.body')}
        </Alert>
      );
    case 'scriptFailed':
      return (
        <Alert tone="danger" title={t('checkout.fastspring.scriptFailed.title')} actions={tryAgain}>
          {t('checkout.fastspring.scriptFailed.body')}
        </Alert>
      );
    default:
      return (
        <Alert tone="danger" title={t('paddleBuy.failed')} actions={tryAgain}>
          {failureText(error)}
        </Alert>
      );
  }
}

/** Chargebee's hosted checkout: the browser goes there (and Chargebee sends it back to this page). */
function ChargebeeCheckout({ priceId }: { priceId: string }) {
  const t = useT();
  const [prepare, { error, reset }] = useRedirectCheckoutMutation();
  const [failed, setFailed] = useState(false);
  const retry = useRef<HTMLButtonElement>(null);

  const start = useCallback(async () => {
    reset();
    setFailed(false);
    try {
      const { url } = await prepare({ provider: 'chargebee', priceId }).unwrap();
      rememberChargebeePrice(priceId);
      window.location.assign(url);
    } catch {
      setFailed(true);
    }
  }, [prepare, priceId, reset]);
  const startNow = useCallback(() => void start(), [start]);
  useStartOnce(startNow);
  useEffect(() => {
    if (failed) retry.current?.focus();
  }, [failed]);

  if (failed) {
    return (
      <Alert
        tone="danger"
        title={t('paddleBuy.failed')}
        actions={
          <Button ref={retry} onClick={startNow}>
            {t('checkout.tryAgain')}
          </Button>
        }
      >
        {failureText(error)}
      </Alert>
    );
  }
  return <Working>{t('checkout.chargebee.leaving')}</Working>;
}

/** Back from Chargebee without a purchase (state=cancelled). */
function ChargebeeLeft() {
  const t = useT();
  const [price] = useState(rememberedChargebeePrice);
  return (
    <Alert
      tone="info"
      title={t('checkout.chargebee.cancelled.title')}
      actions={
        <>
          {price ? (
            <Link to={href('/billing/checkout', {}, { provider: 'chargebee', price })} className={buttonClasses({ size: 'sm' })}>
              {t('checkout.tryAgain')}
            </Link>
          ) : null}
          <Link to={href('/premium-purchase')} className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
            {t('paddleBuy.comparePlans')}
          </Link>
        </>
      }
    >
      {t('checkout.chargebee.cancelled.body')}
    </Alert>
  );
}

/**
 * Discord sells app subscriptions in its own store: the buyer opens the store page (a real link, in
 * a new tab, so no popup blocker stands in the way) and this page waits for Discord's confirmation
 * (`checkouts/discord/<SKU>`: active once the user has the premium subscription).
 */
function DiscordCheckout({ priceId, plan }: { priceId: string; plan: Plan }) {
  const t = useT();
  const [prepare, { data, error, isError, reset }] = useRedirectCheckoutMutation();
  const [opened, setOpened] = useState(false);
  // Read from Activation's answer in the same render as Activation's "Premium is active" (an effect
  // setting a state here would leave the store's link beside it for a moment).
  const active = useActivated('discord', priceId, !opened);

  const start = useCallback(() => {
    reset();
    prepare({ provider: 'discord', priceId })
      .unwrap()
      .catch(() => undefined);
  }, [prepare, priceId, reset]);
  useStartOnce(start);

  return (
    <div className="space-y-6">
      {active ? null : (
        <Card className="p-5 sm:p-6">
          <h2 className="text-base font-semibold text-surface-900 dark:text-surface-50">{t('checkout.discord.title')}</h2>
          <p className="mt-2 text-sm text-surface-700 dark:text-surface-300">{t('checkout.discord.body', { plan: plan.name })}</p>
          <div className="mt-4">
            {isError ? (
              <Alert
                tone="danger"
                title={t('paddleBuy.failed')}
                actions={
                  <Button variant="secondary" size="sm" onClick={start}>
                    {t('checkout.tryAgain')}
                  </Button>
                }
              >
                {failureText(error)}
              </Alert>
            ) : data ? (
              <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center">
                <a
                  href={data.url}
                  target="_blank"
                  rel="noopener"
                  onClick={() => setOpened(true)}
                  onAuxClick={() => setOpened(true)}
                  className={buttonClasses({ variant: 'discord' })}
                >
                  {t('checkout.discord.open')}
                  <ExternalLink className="size-4" aria-hidden="true" />
                  <span className="sr-only"> {t('checkout.newTab')}</span>
                </a>
                {opened ? null : (
                  <Button variant="ghost" onClick={() => setOpened(true)}>
                    {t('checkout.discord.already')}
                  </Button>
                )}
              </div>
            ) : (
              <Button variant="discord" loading disabled>
                {t('checkout.discord.open')}
              </Button>
            )}
          </div>
          <p className="mt-3 text-xs text-surface-500 dark:text-surface-400">{t('checkout.discord.note')}</p>
        </Card>
      )}
      {opened ? (
        <Activation
          provider="discord"
          reference={priceId}
          title={t('checkout.discord.waiting.title')}
          body={t('checkout.discord.waiting.body')}
        />
      ) : null}
    </div>
  );
}
