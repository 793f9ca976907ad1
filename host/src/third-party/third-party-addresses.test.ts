import { CrispClass } from 'crisp-sdk-web';
import { CRISP_SCRIPT_URL, MIXPANEL_DEFAULT_API_HOST } from './third-party-addresses';

// The pages' Content-Security-Policy allows these origins; the libraries must still use them.
describe('the third parties’ default addresses', () => {
  it('are where mixpanel-browser sends events by default', async () => {
    const { default: mixpanel } = await import('mixpanel-browser/dist/mixpanel-with-async-modules.cjs.js');
    const instance = mixpanel.init('test-token', { autocapture: false, track_pageview: false }, 'defaults-probe');
    expect(instance.get_config('api_host')).toBe(MIXPANEL_DEFAULT_API_HOST);
  });

  it('are where crisp-sdk-web loads Crisp from by default', () => {
    const crisp = new CrispClass();
    crisp.configure('00000000-0000-4000-8000-000000000000', { autoload: false });
    crisp.load();
    const loaders = Array.from(document.querySelectorAll('script'), (script) => script.getAttribute('src'));
    expect(loaders).toEqual([CRISP_SCRIPT_URL]);
  });
});
