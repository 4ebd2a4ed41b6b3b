import { readFileSync } from 'node:fs';
import { INVENTORY_TOPICS } from '@pss/contracts';
import { INTEGRATION_TOPICS } from './asyncapi-document';
import { asyncApiText, ASYNCAPI_FILE, EVENTS_FILE, eventsDoc, eventsTable } from './events-docs';

describe('docs/events.md and docs/asyncapi.json', () => {
  it('are what the catalogue makes of them (else run `npm run -s build:events-docs` and commit both)', () => {
    const events = readFileSync(EVENTS_FILE, 'utf8');
    expect(events).toBe(eventsDoc(events));
    expect(readFileSync(ASYNCAPI_FILE, 'utf8')).toBe(asyncApiText());
  });

  it('keep the prose of docs/events.md: only the marked table is generated', () => {
    const events = readFileSync(EVENTS_FILE, 'utf8');
    const edited = events.replace('## Envelope (version 1)', '## Envelope (version 1)\n\nA hand-written line.').replace('| `inventory.store.suspended` |', '| `inventory.store.gone` |');
    const rebuilt = eventsDoc(edited);
    expect(rebuilt).toContain('A hand-written line.');
    expect(rebuilt).not.toContain('inventory.store.gone');
    expect(() => eventsDoc('# Topics\n\nno markers\n')).toThrow(/needs the lines/);
  });

  it('has a row for every topic, with its producer, every field of its data and its consumer groups', () => {
    const table = eventsTable(INTEGRATION_TOPICS).split('\n');
    expect(table.filter((line) => line.startsWith('| `'))).toHaveLength(INTEGRATION_TOPICS.length);
    const row = (topic: string) => table.find((line) => line.startsWith(`| \`${topic}\` |`));
    expect(row(INVENTORY_TOPICS.organizationCreated)).toBe(
      '| `inventory.organization.created` | inventory | An organization was created. `org_id`, `name`, `plan` (`essential`, `standard`, `growth`, `pro`, `enterprise`), `billing_mode` (`partner`, `processor`), `parent_org_id` (or null), `owner_email` (or null), `created_at` | notifier |',
    );
    expect(row(INVENTORY_TOPICS.storeUpdated)).toContain('`profile` (optional; {name, country, timezone, emergency_contact})');
    expect(row(INVENTORY_TOPICS.headersChanged)).toContain('`changes` ([{name, change_type, old_value, new_value}])');
    expect(row(INVENTORY_TOPICS.scriptDetected)).toMatch(/\| alerts, inventory, notifier, reports, api-gateway \|$/);
  });
});
