import { clearPageState, markupAsDom, putPageState } from 'shared/testing/server-render';
import { REDEEM_ID, VOUCHER_CODE, aCompletedRedeem, aRedeem } from '../src/test-fixtures';
import { renderRedeemPage, stubApi } from '../src/test-utils';
import { render } from './render-pages';

afterEach(clearPageState);

const pageOf = (redeem: ReturnType<typeof aRedeem>) =>
  render({
    module: 'RedeemPage',
    pathname: `/redeem/${REDEEM_ID}`,
    queries: [{ queryKey: ['api', 'redeems', REDEEM_ID], data: redeem }],
  });

describe('the redeem page rendered on the server with its session', () => {
  it('holds the form of an open session, and is the browser’s first render with that data, which asks for nothing', () => {
    const page = pageOf(aRedeem());
    expect(page.html).toContain('Redeem your gift');
    expect(page.html).toContain('>Redeem my gift</button>');
    putPageState(page.state);
    const fetchStub = stubApi({});
    const { container } = renderRedeemPage(fetchStub);
    expect(markupAsDom(container.innerHTML)).toBe(markupAsDom(page.html));
    expect(fetchStub).not.toHaveBeenCalled();
  });

  it('shows a completed session’s voucher only when the API gave it to this visitor', () => {
    expect(pageOf(aCompletedRedeem()).html).toContain(VOUCHER_CODE.slice(0, 4));
    expect(pageOf(aCompletedRedeem({ voucherCode: null, emailHint: null })).html).not.toContain(
      VOUCHER_CODE.slice(0, 4),
    );
  });
});
