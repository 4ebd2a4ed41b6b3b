import { invitationMail, quotedOrganizationName } from './invitation-mail';

describe('invitation mail', () => {
  it('puts the introduction between the greeting and the single-use link, in plain text', () => {
    const mail = invitationMail('ana@shop.example', 'You are invited', ['Bruno invited you.'], 'https://pss.example/dashboard/invitations/abc');

    expect(mail).toEqual({
      to: 'ana@shop.example',
      subject: 'You are invited',
      text: [
        'Hello,',
        '',
        'Bruno invited you.',
        '',
        'To accept the invitation and set up your access with a passkey, open this link within 7 days (it works once):',
        'https://pss.example/dashboard/invitations/abc',
        '',
        'If you were not expecting this invitation, you can ignore this e-mail.',
        '',
      ].join('\n'),
    });
    expect(mail).not.toHaveProperty('html');
  });

  it('quotes an organization name on one line, without bidi or other format characters', () => {
    expect(quotedOrganizationName('Loja\n  Azul')).toBe('"Loja Azul"');
    expect(quotedOrganizationName('Shop\u202Egnp.exe\u200B')).toBe('"Shopgnp.exe"');
  });
});
