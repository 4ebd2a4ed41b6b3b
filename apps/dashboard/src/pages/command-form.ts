import { html, type Html } from '../html/html';
import type { MessageKey } from '../i18n/catalogue';
import type { DashboardRequest } from '../http/dashboard-route';

/** A form sending a command: the values as typed, and the command's words per field it refused or about no field. */
export interface CommandFormState {
  values: Record<string, string>;
  refused?: Record<string, string>;
  reason?: string;
}

/** A field's label, its hint, the command's words when it refused it, and the control (given its attributes) tied to them. */
export function commandField(request: DashboardRequest, state: CommandFormState, name: string, label: MessageKey, control: (attributes: Html) => Html, hint?: MessageKey): Html {
  const id = name.replace('.', '-');
  const refused = state.refused?.[name];
  const describedBy = [hint ? `${id}-hint` : '', refused ? `${id}-error` : ''].filter(Boolean).join(' ');
  const attributes = html`id="${id}" name="${name}"${refused ? html` aria-invalid="true"` : ''}${describedBy ? html` aria-describedby="${describedBy}"` : ''}`;
  return html`<label for="${id}">${request.t(label)}</label>
${hint ? html`<p class="hint" id="${id}-hint">${request.t(hint)}</p>` : null}
${refused ? html`<p class="error" id="${id}-error">${refused}</p>` : null}
${control(attributes)}`;
}
