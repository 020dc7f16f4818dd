import type { ProviderPlan } from './provider';

// The built-in test-mode checkout page: a hosted page, as Stripe's is, served by Kincare itself when no
// Stripe key is set. It says plainly that it is a test and charges nothing. Plain HTML and a form post
// (no script, the page's CSP holds), laid out for a phone first: one column, 48 px fields and buttons.

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

function priceText(plan: ProviderPlan): string {
  const amount = (plan.priceCents / 100).toLocaleString('en-US', {
    style: 'currency',
    currency: plan.currency.toUpperCase(),
  });
  return `${amount} / ${plan.interval}`;
}

export type CheckoutPageInput = {
  sessionId: string;
  plan: ProviderPlan;
  email: string;
  cancelUrl: string;
  /** What went wrong with the last try, shown above the form; the fields keep what was typed (not the card). */
  error?: string;
  name?: string;
  /** The page cannot be paid any more (expired, or done): only the message and the way back. */
  closed?: boolean;
};

export function testCheckoutPage(input: CheckoutPageInput): string {
  const { plan } = input;
  const trial = plan.trialPeriodDays > 0;
  const action = `/api/stripe/test-checkout/${encodeURIComponent(input.sessionId)}`;
  const error = input.error
    ? `<p class="error" role="alert" id="checkout-error">${escapeHtml(input.error)}</p>`
    : '';
  const form = input.closed
    ? ''
    : `<form method="post" action="${action}" aria-describedby="test-mode-note">
      ${cardFields(input.name ?? '')}
      <button type="submit">${trial ? 'Start free trial' : 'Pay and subscribe'}</button>
    </form>`;
  return pageFrame(
    `Test checkout: ${escapeHtml(plan.name)}`,
    `<section class="card" aria-labelledby="plan-name">
    <h1 id="plan-name">${escapeHtml(plan.name)}</h1>
    <p class="price">${escapeHtml(priceText(plan))}</p>
    ${trial ? `<p class="muted">${plan.trialPeriodDays}-day free trial: the first payment is due when it ends.</p>` : ''}
    <p class="muted">For ${escapeHtml(input.email)}</p>
    ${error}
    ${form}
    <a class="back" href="${escapeHtml(input.cancelUrl)}">Cancel and go back</a>
  </section>`,
  );
}

const TEST_MODE_NOTE =
  'Test mode: no real payment is taken. Pay with the test card 4242 4242 4242 4242, any future expiry and any 3-digit CVC.';

/** The page around a test-mode form: the test-mode banner first, one column, phone first. */
function pageFrame(title: string, body: string, note = TEST_MODE_NOTE): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<title>${title} · Kincare</title>
<style>
  :root { color-scheme: light dark; --fg: #0f172a; --muted: #475569; --bg: #f8fafc; --card: #ffffff; --accent: #0f766e; --warn-bg: #fef3c7; --warn-fg: #78350f; --error: #b91c1c; --line: #94a3b8; }
  @media (prefers-color-scheme: dark) { :root { --fg: #f1f5f9; --muted: #cbd5e1; --bg: #0f172a; --card: #1e293b; --accent: #5eead4; --warn-bg: #422006; --warn-fg: #fde68a; --error: #fca5a5; --line: #64748b; } }
  * { box-sizing: border-box; }
  body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); padding: max(16px, env(safe-area-inset-top)) 16px 32px; }
  main { max-width: 28rem; margin: 0 auto; }
  .banner { background: var(--warn-bg); color: var(--warn-fg); border-radius: 12px; padding: 12px 16px; font-weight: 600; }
  .card { background: var(--card); border-radius: 16px; padding: 20px; margin-top: 16px; box-shadow: 0 1px 3px rgb(0 0 0 / 0.15); }
  h1 { font-size: 1.5rem; margin: 0 0 4px; }
  .price { font-size: 1.25rem; font-weight: 700; margin: 8px 0 0; }
  .muted { color: var(--muted); margin: 4px 0 0; }
  label { display: block; font-weight: 600; margin-top: 16px; }
  input { display: block; width: 100%; min-height: 48px; margin-top: 4px; padding: 8px 12px; font: inherit; color: inherit; background: transparent; border: 1px solid var(--line); border-radius: 10px; }
  .row { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
  button { display: block; width: 100%; min-height: 48px; margin-top: 24px; border: 0; border-radius: 10px; font: inherit; font-weight: 700; background: var(--accent); color: var(--bg); cursor: pointer; }
  a.back { display: flex; align-items: center; justify-content: center; min-height: 48px; margin-top: 12px; color: var(--accent); font-weight: 600; }
  .error { color: var(--error); font-weight: 600; margin: 16px 0 0; }
  :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
</style>
</head>
<body>
<main>
  <p class="banner" id="test-mode-note">${escapeHtml(note)}</p>
  ${body}
</main>
</body>
</html>`;
}

/** The card fields of both forms (the number is never put back in a page). */
const cardFields = (name: string) => `<label for="card">Card number</label>
      <input id="card" name="card" inputmode="numeric" autocomplete="cc-number" required maxlength="23" placeholder="4242 4242 4242 4242">
      <div class="row">
        <div><label for="expiry">Expiry (MM/YY)</label>
        <input id="expiry" name="expiry" autocomplete="cc-exp" required maxlength="5" placeholder="12/30"></div>
        <div><label for="cvc">CVC</label>
        <input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required maxlength="3" placeholder="123"></div>
      </div>
      <label for="name">Name on card</label>
      <input id="name" name="name" autocomplete="cc-name" required maxlength="100" value="${escapeHtml(name)}">`;

export type BillingPageInput = {
  sessionId: string;
  email: string;
  /** The card on file now, as people recognise it ('Visa •••• 4242, expires 12/34'), or null. */
  currentCard: string | null;
  returnUrl: string;
  error?: string;
  name?: string;
  /** The page cannot be used any more (expired): only the message and the way back. */
  closed?: boolean;
};

/**
 * The test-mode card page: what Stripe's customer portal is for the card, served by Kincare when no Stripe
 * key is set. It shows the card on file and takes a new one; nothing is charged.
 */
export function testBillingPage(input: BillingPageInput): string {
  const action = `/api/stripe/test-billing/${encodeURIComponent(input.sessionId)}`;
  const error = input.error
    ? `<p class="error" role="alert" id="card-error">${escapeHtml(input.error)}</p>`
    : '';
  const form = input.closed
    ? ''
    : `<form method="post" action="${action}" aria-labelledby="card-title">
      ${cardFields(input.name ?? '')}
      <button type="submit">Save card</button>
    </form>`;
  return pageFrame(
    'Test mode: update your card',
    `<section class="card" aria-labelledby="card-title">
    <h1 id="card-title">Update your card</h1>
    <p class="muted">For ${escapeHtml(input.email)}</p>
    <p class="price">${input.currentCard ? `Card on file: ${escapeHtml(input.currentCard)}` : 'No card on file'}</p>
    <p class="muted">The new card is charged from the next payment on. Nothing is charged now.</p>
    ${error}
    ${form}
    <a class="back" href="${escapeHtml(input.returnUrl)}">Back to Kincare</a>
  </section>`,
    'Test mode: no real card is used. Enter a test card: 4242 4242 4242 4242 or 5555 5555 5555 4444, any future expiry and any 3-digit CVC.',
  );
}
