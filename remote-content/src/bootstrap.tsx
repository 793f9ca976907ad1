import { renderStandalone } from 'shared/browser/standalone-shell';
import AboutPage from './exposed/about-page';
import HomePage from './exposed/home-page';
import PrivacyPolicyPage from './exposed/privacy-policy-page';
import TermsPage from './exposed/terms-page';

renderStandalone('Content', [
  { path: '/', example: '/', element: <HomePage /> },
  { path: '/about', example: '/about', element: <AboutPage /> },
  { path: '/privacy-policy', example: '/privacy-policy', element: <PrivacyPolicyPage /> },
  { path: '/terms', example: '/terms', element: <TermsPage /> },
]);
