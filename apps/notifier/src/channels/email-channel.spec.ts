import { emailChannel, emailChannelChanges } from './email-channel';

describe('e-mail channel (the dashboard form)', () => {
  const input = { name: ' Security ', recipients: ['Ana@Shop.example', 'ana@shop.example ', 'bruno@shop.example'] };

  it('holds its recipients once each, in lower case, with no URL, format, secret or event list of its own', () => {
    expect(emailChannel('c1', 'o1', null, input)).toEqual({
      channelId: 'c1',
      orgId: 'o1',
      storeId: null,
      type: 'email',
      format: null,
      url: null,
      secret: null,
      events: null,
      name: 'Security',
      recipients: ['ana@shop.example', 'bruno@shop.example'],
      minSeverity: 'high',
      active: true,
    });
  });

  it('takes 5 recipients and refuses a sixth, counting an address written twice once', () => {
    const five = ['a', 'b', 'c', 'd', 'e'].map((name) => `${name}@shop.example`);
    expect(emailChannel('c1', 'o1', null, { name: 'x', recipients: [...five, 'A@shop.example'] }).recipients).toHaveLength(5);
    expect(() => emailChannel('c1', 'o1', null, { name: 'x', recipients: [...five, 'f@shop.example'] })).toThrow(expect.objectContaining({ code: 'validation_error' }));
  });

  it.each([
    ['no name', { name: '', recipients: ['a@shop.example'] }, 'name'],
    ['a name over 120 characters', { name: 'x'.repeat(121), recipients: ['a@shop.example'] }, 'name'],
    ['no recipients', { name: 'x', recipients: [] }, 'recipients'],
    ['an address without a domain', { name: 'x', recipients: ['ana@shop'] }, 'recipients'],
    ['an address with a space', { name: 'x', recipients: ['ana maria@shop.example'] }, 'recipients'],
    ['an unknown severity', { name: 'x', recipients: ['a@shop.example'], min_severity: 'urgent' as never }, 'min_severity'],
  ])('refuses %s', (_case, given, field) => {
    expect(() => emailChannel('c1', 'o1', null, given)).toThrow(expect.objectContaining({ details: [expect.objectContaining({ field })] }));
  });

  it('changes only what an edit names, validated as on creation', () => {
    expect(emailChannelChanges({ active: false })).toEqual({ name: undefined, recipients: undefined, minSeverity: undefined, active: false });
    expect(emailChannelChanges({ recipients: ['B@shop.example'] }).recipients).toEqual(['b@shop.example']);
    expect(() => emailChannelChanges({ recipients: [] })).toThrow(expect.objectContaining({ code: 'validation_error' }));
  });
});
