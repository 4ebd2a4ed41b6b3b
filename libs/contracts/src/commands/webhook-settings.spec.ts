import { DomainError } from '@pss/kernel';
import { assertWebhookSettings, webhookUrlProblem, WEBHOOK_EVENTS_MESSAGE } from './webhook-settings';

const refusal = (input: Parameters<typeof assertWebhookSettings>[0], creating = true): DomainError | undefined => {
  try {
    assertWebhookSettings(input, creating);
    return undefined;
  } catch (error) {
    return error as DomainError;
  }
};

describe('webhook settings, as the channel commands check them', () => {
  it.each([
    ['https://hooks.example.com/x', null],
    ['http://hooks.example.com/x', 'url must be an https URL of at most 2048 characters'],
    ['hooks.example.com', 'url must be an https URL of at most 2048 characters'],
    [`https://hooks.example.com/${'a'.repeat(2030)}`, 'url must be an https URL of at most 2048 characters'],
    [undefined, 'url must be an https URL of at most 2048 characters'],
    ['https://me:pw@hooks.example.com/x', 'url must not carry a user name or password; deliveries are authenticated by their signature'],
  ])('says what is wrong with the URL %s', (url, problem) => {
    expect(webhookUrlProblem(url)).toBe(problem);
  });

  it('takes a valid creation and a change that leaves the URL out', () => {
    expect(refusal({ url: 'https://hooks.example.com/x', name: ' Ops ', events: ['alert.created', 'script.blocked'], min_severity: 'low', format: 'slack', active: false })).toBeUndefined();
    expect(refusal({ events: null }, false)).toBeUndefined();
  });

  it('refuses with one detail per field, in the API words', () => {
    const error = refusal({ url: 'ftp://x', name: '', events: ['alert.created', 'nope'], min_severity: 'urgent' as never, format: 'xml' as never, active: 'yes' as never });
    expect(error).toBeInstanceOf(DomainError);
    expect(error!.code).toBe('validation_error');
    expect(error!.details).toEqual([
      { field: 'url', message: 'url must be an https URL of at most 2048 characters' },
      { field: 'name', message: 'name should not be empty' },
      { field: 'events', message: WEBHOOK_EVENTS_MESSAGE },
      { field: 'min_severity', message: 'min_severity must be one of the following values: critical, high, medium, low, info' },
      { field: 'format', message: 'format must be one of the following values: json, slack, teams' },
      { field: 'active', message: 'active must be a boolean value' },
    ]);
  });

  it('refuses a name over 120 characters and a creation without a URL', () => {
    expect(refusal({ url: 'https://hooks.example.com', name: 'n'.repeat(121) })!.details).toEqual([{ field: 'name', message: 'name must be shorter than or equal to 120 characters' }]);
    expect(refusal({})!.details!.map((detail) => detail.field)).toEqual(['url']);
  });
});
