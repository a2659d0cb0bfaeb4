import { html, SafeHtml } from './html.ts';
import { layout } from './layout.ts';
import { PASSKEY_SCRIPTS, passkeyForm } from './passkey-controls.ts';

const TEXT = {
  title: 'Set up a second factor',
  subtitleStart: 'before you continue to',
  why: 'Your organisation requires a second factor at sign-in.',
  whyRequested: 'The application asked for sign-in with a second factor.',
  scan: 'Scan this code with an authenticator app (for example Google Authenticator, Microsoft Authenticator, 1Password or Aegis).',
  qrLabel: 'QR code for your authenticator app',
  typeSecret: 'Or type this secret into the app:',
  codeLabel: 'The 6-digit code the app shows now',
  wrongCode: 'That code does not match. Enter the 6-digit code the app shows now.',
  passkeyFailed: 'The passkey was not added. Try it again, or use an authenticator app.',
  confirm: 'Confirm and continue',
  passkeyIntro: 'Or use a passkey instead of an app:',
  passkey: 'Use a passkey instead',
  cancel: 'Cancel and go back to',
  codesTitle: 'Save your recovery codes',
  codesIntro: 'Each of these codes signs you in once if you lose your authenticator. They are shown only now: print them or keep them in a password manager.',
  codesContinue: 'I saved them, continue',
};

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
  const invalid = input.failed === 'code' ? html` aria-describedby="code-error" aria-invalid="true"` : '';
  return layout({
    scripts: PASSKEY_SCRIPTS,
    title: TEXT.title,
    subtitle: html`${TEXT.subtitleStart} <strong>${input.clientName}</strong>`,
    body: html`
<p>${input.required ? TEXT.why : TEXT.whyRequested}</p>
${input.failed ? html`<div class="alert alert-error" role="alert" id="code-error">${input.failed === 'code' ? TEXT.wrongCode : TEXT.passkeyFailed}</div>` : ''}
<p>${TEXT.scan}</p>
${qr ? html`<figure class="qr-code" role="img" aria-label="${TEXT.qrLabel}">${qr}</figure>` : ''}
<p>${TEXT.typeSecret} <code class="totp-secret">${input.secret}</code></p>
<form class="stack" method="post" action="/interaction/${uid}/enrol">
<input type="hidden" name="csrf" value="${input.csrfToken}">
<input type="hidden" name="ticket" value="${input.ticket}">
<input type="hidden" name="factorId" value="${input.factorId}">
<div class="field">
<label for="code">${TEXT.codeLabel}</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,8}" required maxlength="8"${invalid} autofocus>
</div>
<button class="button button-primary" type="submit">${TEXT.confirm}</button>
</form>
${passkeyForm({ mode: 'register', action: `/interaction/${uid}/enrol/passkey`, optionsAction: `/interaction/${uid}/enrol/passkey/options`, csrfToken: input.csrfToken, ticket: input.ticket, label: TEXT.passkey })}
<form class="secondary-action" method="post" action="/interaction/${uid}/abort">
<input type="hidden" name="csrf" value="${input.csrfToken}">
<button class="button button-quiet" type="submit">${TEXT.cancel} ${input.clientName}</button>
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
}

/** The recovery codes of the first factor, shown this once; continuing finishes the sign-in. */
export function renderRecoveryCodesPage(input: RecoveryCodesPageInput): string {
  const uid = encodeURIComponent(input.uid);
  return layout({
    title: TEXT.codesTitle,
    subtitle: html`${TEXT.subtitleStart} <strong>${input.clientName}</strong>`,
    body: html`
<p>${TEXT.codesIntro}</p>
<ol class="recovery-codes">
${input.recoveryCodes.map((code) => html`<li><code>${code}</code></li>`)}
</ol>
<form class="stack" method="post" action="/interaction/${uid}/enrolled">
<input type="hidden" name="csrf" value="${input.csrfToken}">
<input type="hidden" name="ticket" value="${input.ticket}">
<button class="button button-primary" type="submit">${TEXT.codesContinue}</button>
</form>`,
  });
}
