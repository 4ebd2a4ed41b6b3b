/**
 * The install page's live check (issue 32): every 2 seconds it asks the check's JSON route (the session's cookie
 * authenticates it) and puts what the server said in place, so the first page view and its scripts show without
 * a reload. Text only (`textContent`): the strings are the server's, already in the reader's language.
 */
interface InstallCheckView {
  installed: boolean;
  status: string;
  scripts: Array<{ src: string; status: string }>;
  causes: Array<{ text: string; seen: boolean }>;
}

const POLL_MS = 2000;

function item(parts: Array<{ tag: string; text: string }>, className?: string): HTMLLIElement {
  const li = document.createElement('li');
  if (className) li.className = className;
  parts.forEach((part, index) => {
    if (index) li.appendChild(document.createTextNode(' '));
    const element = document.createElement(part.tag);
    element.textContent = part.text;
    li.appendChild(element);
  });
  return li;
}

function replaceItems(list: HTMLElement | null, items: HTMLLIElement[]): void {
  if (!list) return;
  while (list.firstChild) list.removeChild(list.firstChild);
  items.forEach((li) => list.appendChild(li));
}

function show(section: HTMLElement, view: InstallCheckView): void {
  const status = section.querySelector<HTMLElement>('#install-status');
  // Only a change is written: the status is a live region, and rewriting the same words would repeat them.
  if (status && status.textContent !== view.status) {
    status.textContent = view.status;
    status.className = view.installed ? 'notice' : 'waiting';
  }
  replaceItems(section.querySelector<HTMLElement>('#install-scripts'), view.scripts.map((script) => item([{ tag: 'code', text: script.src }, { tag: 'span', text: script.status }])));
  replaceItems(section.querySelector<HTMLElement>('#install-causes'), view.causes.map((cause) => item([{ tag: 'span', text: cause.text }], cause.seen ? 'seen' : 'unseen')));
  // No likely cause once page views come (developer mode aside): the heading goes with its list.
  const causes = section.querySelector<HTMLElement>('#install-causes-block');
  if (causes) causes.hidden = view.causes.length === 0;
}

function poll(section: HTMLElement, url: string): void {
  fetch(url, { credentials: 'same-origin', headers: { accept: 'application/json' } })
    .then((response) => {
      // A session that ended answers with the sign-in page: the check stops rather than show it.
      if (!response.ok || (response.headers.get('content-type') || '').indexOf('application/json') !== 0) return false;
      return response.json().then((view: InstallCheckView) => {
        show(section, view);
        return true;
      });
    })
    .catch(() => true)
    .then((goOn) => {
      if (goOn) setTimeout(() => poll(section, url), POLL_MS);
    });
}

document.addEventListener('DOMContentLoaded', () => {
  const section = document.querySelector<HTMLElement>('[data-install-check]');
  const url = section && section.getAttribute('data-install-check');
  if (section && url) setTimeout(() => poll(section, url), POLL_MS);
});
