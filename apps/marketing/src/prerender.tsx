/**
 * The marketing pages prerendered for the server (built for Node as dist/prerender.mjs; see
 * @tickety/shared/prerender). Eager imports: the server renders without lazy chunks, so the policy
 * documents come bundled too, in every language, and each page renders in the locale it is asked for.
 */
import { seedPlans } from '@tickety/shared';
import { pageRenderer } from '@tickety/shared/prerender';
import ClipboardPage from './features/clipboard/clipboard';
import HomePage from './features/home/home';
import HomeDisplayPage from './features/home-display/home-display';
import InvitePage from './features/invite/invite';
import aupPolicy from './features/policy/content/aup-policy.md';
import aupPolicyDe from './features/policy/content/de/aup-policy.md';
import legalDe from './features/policy/content/de/legal.md';
import privacyPolicyDe from './features/policy/content/de/privacy-policy.md';
import refundPolicyDe from './features/policy/content/de/refund-policy.md';
import termsOfServiceDe from './features/policy/content/de/terms-of-service.md';
import legal from './features/policy/content/legal.md';
import privacyPolicy from './features/policy/content/privacy-policy.md';
import refundPolicy from './features/policy/content/refund-policy.md';
import termsOfService from './features/policy/content/terms-of-service.md';
import { type PolicySources, PolicySourcesContext } from './features/policy/documents';
import PolicyPage from './features/policy/policy';
import PremiumPage from './features/premium/premium';
import PremiumDisplayPage from './features/premium-display/premium-display';
import { seedStatus } from './features/status/api';
import StatusPage from './features/status/status';
import SupportPage from './features/support/support';
import de from './locales/de.json';
import en from './locales/en.json';
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
  // The server's status and plans, as the app puts them into its cache at the takeover (routes.tsx).
  (dispatch, data) => {
    if (data.plans) seedPlans(dispatch, data.plans);
    if (data.status) seedStatus(dispatch, data.status);
  },
);
