/**
 * The review inbox's keyboard shortcuts (issue 32; listed on the page): j/k move between scripts, x selects one,
 * g the whole group, e writes the justification (Esc goes back), a authorizes and b blocks the group's selection.
 * The page works without them as plain forms; this only moves focus, ticks boxes and presses the form's buttons.
 */
const rows = (): HTMLInputElement[] => Array.from(document.querySelectorAll<HTMLInputElement>('input[data-review-row]'));

let current = -1;

function focusRow(index: number): void {
  const all = rows();
  if (!all.length) return;
  current = Math.max(0, Math.min(all.length - 1, index));
  all.forEach((row, at) => row.closest('tr')?.classList.toggle('current', at === current));
  all[current].focus();
}

/** The group's form of the row in focus (the first group before any move). */
function currentForm(): HTMLFormElement | null {
  const row = rows()[Math.max(current, 0)];
  return row ? row.form : null;
}

function selectGroup(box: HTMLInputElement): void {
  if (!box.form) return;
  box.form.querySelectorAll<HTMLInputElement>('input[data-review-row]').forEach((row) => {
    row.checked = box.checked;
  });
}

const typing = (target: EventTarget | null): boolean => target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement || (target instanceof HTMLInputElement && target.type === 'text');

function press(key: string): boolean {
  const form = currentForm();
  switch (key) {
    case 'j':
      focusRow(current + 1);
      return true;
    case 'k':
      focusRow(current - 1);
      return true;
    case 'x': {
      const row = rows()[current];
      if (row) row.checked = !row.checked;
      return Boolean(row);
    }
    case 'g': {
      const box = form && form.querySelector<HTMLInputElement>('input[data-select-group]');
      if (!box) return false;
      box.checked = !box.checked;
      selectGroup(box);
      return true;
    }
    case 'e': {
      const text = form && form.querySelector<HTMLTextAreaElement>('textarea[data-justification]');
      if (text) text.focus();
      return Boolean(text);
    }
    case 'a':
    case 'b': {
      const button = form && form.querySelector<HTMLButtonElement>(`button[data-decision="${key}"]`);
      // requestSubmit checks the form (a justification is required) as pressing the button would.
      if (form && button) form.requestSubmit(button);
      return Boolean(button);
    }
  }
  return false;
}

document.addEventListener('keydown', (event) => {
  if (!document.querySelector('[data-review-group]') || event.ctrlKey || event.metaKey || event.altKey) return;
  if (typing(event.target)) {
    if (event.key === 'Escape') {
      focusRow(current);
      event.preventDefault();
    }
    return;
  }
  if (press(event.key)) event.preventDefault();
});

document.addEventListener('change', (event) => {
  const box = event.target as HTMLInputElement;
  if (box.hasAttribute && box.hasAttribute('data-select-group')) selectGroup(box);
});

export {};
