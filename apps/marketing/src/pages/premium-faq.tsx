import { Link } from '@tickety/shared';
import type { FaqItem } from '../components/faq';

export function premiumFaq(product: string): FaqItem[] {
  return [
    {
      question: 'Is there a free plan?',
      answer: (
        <p>
          Yes, with no time limit. It covers ticket panels with buttons and forms, support roles, claiming, transcripts on the web, statistics and web logs. Upgrade
          when you need more panels, longer history or support hours.
        </p>
      ),
    },
    {
      question: 'How do I give a server premium?',
      answer: (
        <p>
          After checkout, open the server in the <Link to="/dashboard">dashboard</Link>, go to its Premium page and assign your subscription to it. You can move
          premium to another server later; a short cooldown between moves keeps things fair.
        </p>
      ),
    },
    {
      question: 'Which payment methods can I use?',
      answer: (
        <>
          <p>
            Cards and the local methods offered in your country through Paddle or FastSpring, Discord&apos;s own app subscriptions, or invoices through Chargebee. The
            provider you pay acts as the merchant or processor and sends your receipt.
          </p>
          <p>
            Whichever you choose, all your subscriptions show up on one <Link to="/billing">billing page</Link>.
          </p>
        </>
      ),
    },
    {
      question: 'Can I cancel at any time?',
      answer: (
        <p>
          Yes. Cancel from your <Link to="/billing">billing page</Link> (or in Discord for a Discord subscription). Premium stays active until the end of the period
          you already paid for, and the subscription does not renew.
        </p>
      ),
    },
    {
      question: 'Do you offer refunds?',
      answer: (
        <p>
          If something went wrong, ask us within 14 days of a charge. The <Link to="/refund-policy">refund policy</Link> explains when and how refunds are given.
        </p>
      ),
    },
    {
      question: 'What happens to my setup if premium ends?',
      answer: (
        <p>
          Nothing is deleted. Your panels and settings stay saved in {product}; features beyond the free plan pause until you renew, and every earlier configuration
          is still there to restore.
        </p>
      ),
    },
  ];
}
