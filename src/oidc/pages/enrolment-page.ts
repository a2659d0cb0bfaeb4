import { html, SafeHtml } from '../../pages/html.ts';
import { layout, markup, text, type PageLanguage } from '../../pages/layout.ts';
import { PASSKEY_SCRIPTS, passkeyForm } from './passkey-controls.ts';


export interface EnrolmentPageInput {
  uid: string;
  csrfToken: string;
  ticket: string;
  clientName: string;
  factorId: string;
  secret: string;
  qrCodeSvg: string;
  /** The policy asks for it (else the application asked for multi-factor: acr_values=mfa). */
  required: boolean;
  /** `code`: a wrong first code; `passkey`: the browser's new passkey did not verify. */
  failed?: 'code' | 'passkey' | undefined;
  language: PageLanguage;
}

// The QR code is SVG drawn locally by the qrcode package; it is inlined (the page's CSP forbids data:
// images), so only markup of exactly that shape is: an <svg> of <path> elements with plain attributes.
const QR_SVG_SHAPE = /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"(?: [a-zA-Z-]+="[0-9a-zA-Z .#-]*")*>(?:<path(?: [a-zA-Z-]+="[0-9a-zA-Z .#-]*")*\/>)+<\/svg>\s*$/;

export function safeQrCode(svg: string): SafeHtml | null {
  return QR_SVG_SHAPE.test(svg) ? new SafeHtml(svg.trim().replace('<svg ', '<svg aria-hidden="true" focusable="false" ')) : null;
}

/** Enrolment inside a sign-in: an authenticator app confirmed by a first code, or a passkey; no code reaches the application before. */
export function renderEnrolmentPage(input: EnrolmentPageInput): string {
  const uid = encodeURIComponent(input.uid);
  const qr = safeQrCode(input.qrCodeSvg);
  const { language } = input;
  const invalid = input.failed === 'code' ? html` aria-describedby="code-error" aria-invalid="true"` : '';
  return layout({
    language,
    scripts: PASSKEY_SCRIPTS,
    title: text(language, 'enrol.title'),
    subtitle: markup(language, 'enrol.subtitle', { client: html`<strong>${input.clientName}</strong>` }),
    body: html`
<p>${text(language, input.required ? 'enrol.why' : 'enrol.whyRequested')}</p>
${input.failed ? html`<div class="alert alert-error" role="alert" id="code-error">${text(language, input.failed === 'code' ? 'enrol.wrongCode' : 'enrol.passkeyFailed')}</div>` : ''}
<p>${text(language, 'enrol.scan')}</p>
${qr ? html`<figure class="qr-code" role="img" aria-label="${text(language, 'enrol.qrLabel')}">${qr}</figure>` : ''}
<p>${text(language, 'enrol.typeSecret')} <code class="totp-secret">${input.secret}</code></p>
<form class="stack" method="post" action="/interaction/${uid}/enrol">
<input type="hidden" name="csrf" value="${input.csrfToken}">
<input type="hidden" name="ticket" value="${input.ticket}">
<input type="hidden" name="factorId" value="${input.factorId}">
<div class="field">
<label for="code">${text(language, 'enrol.codeLabel')}</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,8}" required maxlength="8"${invalid} autofocus>
</div>
<button class="button button-primary" type="submit">${text(language, 'enrol.confirm')}</button>
</form>
${passkeyForm({ mode: 'register', action: `/interaction/${uid}/enrol/passkey`, optionsAction: `/interaction/${uid}/enrol/passkey/options`, csrfToken: input.csrfToken, ticket: input.ticket, label: text(language, 'enrol.passkey'), failedText: text(language, 'enrol.passkeyFailed') })}
<form class="secondary-action" method="post" action="/interaction/${uid}/abort">
<input type="hidden" name="csrf" value="${input.csrfToken}">
<button class="button button-quiet" type="submit">${text(language, 'login.cancel', { client: input.clientName })}</button>
</form>`,
  });
}

export interface RecoveryCodesPageInput {
  uid: string;
  csrfToken: string;
  /** Stands for the enrolment just completed in this sign-in. */
  ticket: string;
  clientName: string;
  recoveryCodes: readonly string[];
  language: PageLanguage;
}

/** The recovery codes of the first factor, shown this once; continuing finishes the sign-in. */
export function renderRecoveryCodesPage(input: RecoveryCodesPageInput): string {
  const uid = encodeURIComponent(input.uid);
  const { language } = input;
  return layout({
    language,
    title: text(language, 'enrol.codesTitle'),
    subtitle: markup(language, 'enrol.subtitle', { client: html`<strong>${input.clientName}</strong>` }),
    body: html`
<p>${text(language, 'enrol.codesIntro')}</p>
<ol class="recovery-codes">
${input.recoveryCodes.map((code) => html`<li><code>${code}</code></li>`)}
</ol>
<form class="stack" method="post" action="/interaction/${uid}/enrolled">
<input type="hidden" name="csrf" value="${input.csrfToken}">
<input type="hidden" name="ticket" value="${input.ticket}">
<button class="button button-primary" type="submit">${text(language, 'enrol.codesContinue')}</button>
</form>`,
  });
}
