/**
 * The marketing pages prerendered for the server (built for Node as dist/prerender.mjs; see
 * @tickety/shared/prerender). Eager imports: the server renders without lazy chunks, so the policy
 * documents come bundled too, in every language, and each page renders in the locale it is asked for.
 */
import { pageRenderer } from '@tickety/shared/prerender';
import aupPolicy from './content/aup-policy.md';
import aupPolicyDe from './content/de/aup-policy.md';
import legalDe from './content/de/legal.md';
import privacyPolicyDe from './content/de/privacy-policy.md';
import refundPolicyDe from './content/de/refund-policy.md';
import termsOfServiceDe from './content/de/terms-of-service.md';
import legal from './content/legal.md';
import privacyPolicy from './content/privacy-policy.md';
import refundPolicy from './content/refund-policy.md';
import termsOfService from './content/terms-of-service.md';
import { type PolicySources, PolicySourcesContext } from './lib/policy-documents';
import de from './locales/de.json';
import en from './locales/en.json';
import ClipboardPage from './pages/clipboard-page';
import HomeDisplayPage from './pages/home-display-page';
import HomePage from './pages/home-page';
import InvitePage from './pages/invite-page';
import PolicyPage from './pages/policy-page';
import PremiumDisplayPage from './pages/premium-display-page';
import PremiumPage from './pages/premium-page';
import StatusPage from './pages/status-page';
import SupportPage from './pages/support-page';
import { routeTable } from './route-table';

/** Every policy document in every language (the browser loads them one chunk at a time instead). */
const POLICY_SOURCES: PolicySources = {
  en: { 'terms-of-service': termsOfService, 'privacy-policy': privacyPolicy, legal, 'refund-policy': refundPolicy, 'aup-policy': aupPolicy },
  de: { 'terms-of-service': termsOfServiceDe, 'privacy-policy': privacyPolicyDe, legal: legalDe, 'refund-policy': refundPolicyDe, 'aup-policy': aupPolicyDe },
};

/** The policy page with its document at hand, in the locale being rendered. */
function PrerenderedPolicyPage() {
  return (
    <PolicySourcesContext.Provider value={POLICY_SOURCES}>
      <PolicyPage />
    </PolicySourcesContext.Provider>
  );
}

export const renderPage = pageRenderer(
  routeTable,
  {
    home: HomePage,
    premium: PremiumPage,
    termsOfService: PrerenderedPolicyPage,
    privacyPolicy: PrerenderedPolicyPage,
    legal: PrerenderedPolicyPage,
    refundPolicy: PrerenderedPolicyPage,
    aupPolicy: PrerenderedPolicyPage,
    support: SupportPage,
    invite: InvitePage,
    status: StatusPage,
    homeDisplay: HomeDisplayPage,
    premiumDisplay: PremiumDisplayPage,
    clipboard: ClipboardPage,
  },
  { namespace: 'marketing', messages: { en, de } },
);
