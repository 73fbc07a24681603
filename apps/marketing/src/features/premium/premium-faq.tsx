import { Link, type Translate } from '@tickety/shared';
import type { FaqItem } from '../../components/faq';
import { href } from '../../lib/hrefs';
import { type MessageKey, Message } from '../../lib/i18n';

/** The premium page's questions, in the active language (`t` from the page's `useT()`). */
export function premiumFaq(t: Translate<MessageKey>, product: string): FaqItem[] {
  return [
    {
      question: t('premiumFaq.free.question'),
      answer: <p>{t('premiumFaq.free.answer')}</p>,
    },
    {
      question: t('premiumFaq.assign.question'),
      answer: (
        <p>
          <Message k="premiumFaq.assign.answer" components={{ link: <Link to={href('/dashboard')} /> }} />
        </p>
      ),
    },
    {
      question: t('premiumFaq.methods.question'),
      answer: (
        <>
          <p>{t('premiumFaq.methods.answer')}</p>
          <p>
            <Message k="premiumFaq.methods.overview" components={{ link: <Link to={href('/billing')} /> }} />
          </p>
        </>
      ),
    },
    {
      question: t('premiumFaq.cancel.question'),
      answer: (
        <p>
          <Message k="premiumFaq.cancel.answer" components={{ link: <Link to={href('/billing')} /> }} />
        </p>
      ),
    },
    {
      question: t('premiumFaq.refunds.question'),
      answer: (
        <p>
          <Message k="premiumFaq.refunds.answer" components={{ link: <Link to={href('/refund-policy')} /> }} />
        </p>
      ),
    },
    {
      question: t('premiumFaq.afterPremium.question'),
      answer: <p>{t('premiumFaq.afterPremium.answer', { product })}</p>,
    },
  ];
}
