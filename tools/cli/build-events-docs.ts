import { readFileSync, writeFileSync } from 'node:fs';
import { ASYNCAPI_FILE, asyncApiText, EVENTS_FILE, eventsDoc } from '@pss/api-gateway/src/openapi/asyncapi/events-docs';

// Writes what the asyncapi and events-docs specs compare with: commit both files with the change that moved them.
writeFileSync(ASYNCAPI_FILE, asyncApiText());
writeFileSync(EVENTS_FILE, eventsDoc(readFileSync(EVENTS_FILE, 'utf8')));
process.stdout.write(`${ASYNCAPI_FILE}\n${EVENTS_FILE}\n`);
