/**
 * The dashboard's one script (bundled by esbuild, served from /dashboard/assets): the passkey ceremonies and the
 * copy buttons. Pages work as plain forms; this only fills a form's `credential` field before it is sent. It
 * writes text only (`textContent`, `value`), never markup, so Trusted Types has nothing to refuse.
 */
import { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import './review-inbox';
import './install-check';

async function ceremony(form: HTMLFormElement): Promise<void> {
  const options = JSON.parse(form.getAttribute('data-options') || '{}');
  const credential = form.getAttribute('data-passkey') === 'register' ? await startRegistration({ optionsJSON: options }) : await startAuthentication({ optionsJSON: options });
  const field = form.querySelector<HTMLInputElement>('input[name="credential"]');
  if (field) field.value = JSON.stringify(credential);
  form.submit();
}

function showError(form: HTMLFormElement, error: unknown): void {
  const slot = form.querySelector<HTMLElement>('[data-passkey-error]');
  if (!slot) return;
  slot.textContent = `${slot.getAttribute('data-passkey-error')} (${error instanceof Error ? error.name : 'Error'})`;
  slot.hidden = false;
}

document.addEventListener('submit', (event) => {
  const form = event.target as HTMLFormElement;
  if (!form.hasAttribute('data-passkey')) return;
  event.preventDefault();
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (button) button.disabled = true;
  ceremony(form).catch((error: unknown) => {
    if (button) button.disabled = false;
    showError(form, error);
  });
});

document.addEventListener('click', (event) => {
  const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-copy]');
  const source = button && document.getElementById(button.getAttribute('data-copy') || '');
  if (!button || !source) return;
  void navigator.clipboard.writeText(source.textContent || '').then(() => {
    button.textContent = button.getAttribute('data-copied') || button.textContent;
  });
});

// The buttons that need this script stay hidden until it runs: without it they would do nothing.
document.addEventListener('DOMContentLoaded', () => {
  document.querySelectorAll<HTMLElement>('[data-needs-script]').forEach((element) => {
    element.hidden = false;
  });
});
