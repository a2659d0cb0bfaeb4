// The passkey buttons of the sign-in pages. Served from Sesame's own origin under a CSP without inline
// script; everything else on those pages works without it. Each `form[data-passkey]` is hidden until
// this script finds WebAuthn: on submit it asks its `data-options` URL for fresh options, lets the browser
// make the credential (`register`) or the assertion (`sign-in`), and posts the answer in `credential`.
(() => {
  'use strict';
  const webauthn = window.SimpleWebAuthnBrowser;
  if (!webauthn || !webauthn.browserSupportsWebAuthn()) return;
  const forms = [...document.querySelectorAll('form[data-passkey]')];

  async function options(form) {
    const fields = new URLSearchParams();
    for (const name of ['csrf', 'ticket']) {
      const input = form.elements.namedItem(name);
      if (input) fields.set(name, input.value);
    }
    const response = await fetch(form.dataset.options, { method: 'POST', body: fields, credentials: 'same-origin', headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error('options');
    return response.json();
  }

  function showError(form, text) {
    const alert = form.querySelector('[data-passkey-error]');
    if (!alert) return;
    alert.textContent = text;
    alert.hidden = false;
  }

  async function ceremony(form, useBrowserAutofill) {
    const optionsJSON = await options(form);
    const answer = form.dataset.passkey === 'register'
      ? await webauthn.startRegistration({ optionsJSON })
      : await webauthn.startAuthentication({ optionsJSON, useBrowserAutofill });
    form.elements.namedItem('credential').value = JSON.stringify(answer);
    HTMLFormElement.prototype.submit.call(form);
  }

  for (const form of forms) {
    form.hidden = false;
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const button = form.querySelector('button[type="submit"]');
      if (button) button.disabled = true;
      ceremony(form, false).catch(() => {
        if (button) button.disabled = false;
        showError(form, form.dataset.failed || 'The passkey did not work. Try again, or use the form above.');
      });
    });
  }

  // The browser's autofill prompt on the login page: passkeys offered in the account field's suggestions.
  const autofill = forms.find((form) => form.dataset.autofill === 'true');
  if (autofill) {
    webauthn.browserSupportsWebAuthnAutofill().then((supported) => {
      if (supported) ceremony(autofill, true).catch(() => undefined);
    }, () => undefined);
  }
})();
