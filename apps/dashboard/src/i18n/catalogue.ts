/**
 * Every string the dashboard shows, in Portuguese (the default, as the reports) and English. A page asks for a
 * key, never writes text: a string missing from a language is a compile error, since `en` must have pt-BR's keys.
 * `{name}` placeholders are filled by `translate`, escaped by the template like any other text.
 */
import { TOKENS_EN, TOKENS_PT_BR } from './tokens.catalogue';
import { MEMBERS_EN, MEMBERS_PT_BR } from './members.catalogue';
import { EMAIL_CHANNELS_EN, EMAIL_CHANNELS_PT_BR } from './email-channels.catalogue';
import { AUDIT_LOG_EN, AUDIT_LOG_PT_BR } from './audit-log.catalogue';
import { SCRIPTS_EN, SCRIPTS_PT_BR } from './scripts.catalogue';
import { ALERTS_EN, ALERTS_PT_BR } from './alerts.catalogue';
import { PAGE_AS_OF_EN, PAGE_AS_OF_PT_BR } from './page-as-of.catalogue';
import { POLICIES_EN, POLICIES_PT_BR } from './policies.catalogue';
import { REPORTS_EN, REPORTS_PT_BR } from './reports.catalogue';
import { STORES_EN, STORES_PT_BR } from './stores.catalogue';
import { WEBHOOKS_EN, WEBHOOKS_PT_BR } from './webhooks.catalogue';
import { FIELD_REFUSALS_EN, FIELD_REFUSALS_PT_BR } from './field-refusals.catalogue';
import { WEBHOOK_OUTCOMES_EN, WEBHOOK_OUTCOMES_PT_BR } from './webhook-outcomes.catalogue';

const ptBR = {
  ...TOKENS_PT_BR,
  ...MEMBERS_PT_BR,
  ...EMAIL_CHANNELS_PT_BR,
  ...AUDIT_LOG_PT_BR,
  ...SCRIPTS_PT_BR,
  ...ALERTS_PT_BR,
  ...PAGE_AS_OF_PT_BR,
  ...POLICIES_PT_BR,
  ...REPORTS_PT_BR,
  ...STORES_PT_BR,
  ...WEBHOOKS_PT_BR,
  ...FIELD_REFUSALS_PT_BR,
  ...WEBHOOK_OUTCOMES_PT_BR,
  'app.name': 'Payment Page Script Security',
  'app.dashboard': 'Painel',
  'nav.home': 'Início',
  'nav.passkeys': 'Chaves de acesso',
  'nav.skip': 'Pular para o conteúdo',
  'language.label': 'Idioma',
  'language.pt-BR': 'Português',
  'language.en': 'English',
  'sign-in.title': 'Entrar',
  'sign-in.passkey': 'Entrar com chave de acesso',
  'sign-in.recovery.title': 'Entrar com um código de recuperação',
  'sign-in.recovery.email': 'E-mail',
  'sign-in.recovery.code': 'Código de recuperação',
  'sign-in.recovery.submit': 'Entrar com o código',
  'sign-in.recovery.used': 'Você entrou com um código de recuperação; restam {count}. Cadastre uma nova chave de acesso se perdeu a sua.',
  'sign-out': 'Sair',
  'signed-out': 'Você saiu.',
  'session.expired': 'Sua sessão expirou. Entre de novo.',
  'home.title': 'Início',
  'home.organization': 'Organização',
  'home.signed-in-as': 'Conectado como {email}',
  'home.role': 'Papel',
  'role.organization-owner': 'Proprietário da organização',
  'role.store-owner': 'Proprietário de loja',
  'role.viewer': 'Leitor',
  'invitation.title': 'Aceitar o convite',
  'invitation.intro': 'Você foi indicado como proprietário da organização "{organization}" ({email}).',
  'invitation.how': 'Ao aceitar, seu navegador cria uma chave de acesso (passkey) para este painel: sem senha.',
  'invitation.accept': 'Aceitar e criar minha chave de acesso',
  'invitation.invalid': 'Este convite não é válido: ele expirou, já foi usado ou foi substituído por outro. Peça um novo convite.',
  'recovery-codes.title': 'Seus códigos de recuperação',
  'recovery-codes.intro': 'Guarde estes dez códigos num lugar seguro. Cada um permite entrar uma vez se você perder sua chave de acesso. Eles não serão mostrados de novo.',
  'recovery-codes.copy': 'Copiar os códigos',
  'recovery-codes.continue': 'Guardei os códigos, continuar',
  'passkeys.title': 'Chaves de acesso',
  'passkeys.intro': 'Cada chave de acesso permite entrar neste painel. Adicione uma para cada dispositivo seu.',
  'passkeys.created': 'Criada em',
  'passkeys.last-used': 'Último uso',
  'passkeys.never': 'nunca',
  'passkeys.add': 'Adicionar uma chave de acesso',
  'passkeys.added': 'Chave de acesso adicionada.',
  'step-up.title': 'Confirme que é você',
  'step-up.intro': 'Esta ação exige que você use sua chave de acesso de novo.',
  'step-up.confirm': 'Confirmar com a chave de acesso',
  'copy.done': 'Copiado',
  'error.title': 'Algo deu errado',
  'error.csrf': 'O formulário expirou ou não veio deste painel. Recarregue a página e tente de novo.',
  'error.not-found': 'Página não encontrada.',
  'error.rate-limited': 'Tentativas demais. Espere {seconds} segundos e tente de novo.',
  'error.passkey': 'A chave de acesso não foi aceita. Tente de novo.',
  'error.recovery': 'E-mail ou código de recuperação incorreto.',
  'error.forbidden': 'Seu papel não permite esta ação.',
  'error.javascript': 'Chaves de acesso precisam de JavaScript habilitado neste painel.',
  'error.unexpected': 'Erro inesperado. Tente de novo em instantes.',
  'time.utc': 'UTC: {utc}',
};

export type MessageKey = keyof typeof ptBR;
export type Catalogue = Record<MessageKey, string>;

const en: Catalogue = {
  ...TOKENS_EN,
  ...MEMBERS_EN,
  ...EMAIL_CHANNELS_EN,
  ...AUDIT_LOG_EN,
  ...SCRIPTS_EN,
  ...ALERTS_EN,
  ...PAGE_AS_OF_EN,
  ...POLICIES_EN,
  ...REPORTS_EN,
  ...STORES_EN,
  ...WEBHOOKS_EN,
  ...FIELD_REFUSALS_EN,
  ...WEBHOOK_OUTCOMES_EN,
  'app.name': 'Payment Page Script Security',
  'app.dashboard': 'Dashboard',
  'nav.home': 'Home',
  'nav.passkeys': 'Passkeys',
  'nav.skip': 'Skip to content',
  'language.label': 'Language',
  'language.pt-BR': 'Português',
  'language.en': 'English',
  'sign-in.title': 'Sign in',
  'sign-in.passkey': 'Sign in with a passkey',
  'sign-in.recovery.title': 'Sign in with a recovery code',
  'sign-in.recovery.email': 'E-mail',
  'sign-in.recovery.code': 'Recovery code',
  'sign-in.recovery.submit': 'Sign in with the code',
  'sign-in.recovery.used': 'You signed in with a recovery code; {count} remain. Add a new passkey if you lost yours.',
  'sign-out': 'Sign out',
  'signed-out': 'You signed out.',
  'session.expired': 'Your session expired. Sign in again.',
  'home.title': 'Home',
  'home.organization': 'Organization',
  'home.signed-in-as': 'Signed in as {email}',
  'home.role': 'Role',
  'role.organization-owner': 'Organization owner',
  'role.store-owner': 'Store owner',
  'role.viewer': 'Viewer',
  'invitation.title': 'Accept the invitation',
  'invitation.intro': 'You were named the owner of the organization "{organization}" ({email}).',
  'invitation.how': 'Accepting creates a passkey for this dashboard in your browser: no password.',
  'invitation.accept': 'Accept and create my passkey',
  'invitation.invalid': 'This invitation is not valid: it expired, was used already or was replaced by a newer one. Ask for a new invitation.',
  'recovery-codes.title': 'Your recovery codes',
  'recovery-codes.intro': 'Keep these ten codes somewhere safe. Each signs you in once if you lose your passkey. They will not be shown again.',
  'recovery-codes.copy': 'Copy the codes',
  'recovery-codes.continue': 'I saved the codes, continue',
  'passkeys.title': 'Passkeys',
  'passkeys.intro': 'Each passkey signs you in to this dashboard. Add one for each of your devices.',
  'passkeys.created': 'Created',
  'passkeys.last-used': 'Last used',
  'passkeys.never': 'never',
  'passkeys.add': 'Add a passkey',
  'passkeys.added': 'Passkey added.',
  'step-up.title': 'Confirm it is you',
  'step-up.intro': 'This action needs your passkey again.',
  'step-up.confirm': 'Confirm with the passkey',
  'copy.done': 'Copied',
  'error.title': 'Something went wrong',
  'error.csrf': 'The form expired or did not come from this dashboard. Reload the page and try again.',
  'error.not-found': 'Page not found.',
  'error.rate-limited': 'Too many attempts. Wait {seconds} seconds and try again.',
  'error.passkey': 'The passkey was not accepted. Try again.',
  'error.recovery': 'Wrong e-mail or recovery code.',
  'error.forbidden': 'Your role does not allow this.',
  'error.javascript': 'Passkeys need JavaScript enabled on this dashboard.',
  'error.unexpected': 'Unexpected error. Try again shortly.',
  'time.utc': 'UTC: {utc}',
};

export const LOCALES = ['pt-BR', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'pt-BR';

export const CATALOGUES: Record<Locale, Catalogue> = { 'pt-BR': ptBR, en };

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

export const translator =
  (locale: Locale): Translate =>
  (key, params = {}) =>
    CATALOGUES[locale][key].replace(/\{(\w+)\}/g, (placeholder, name: string) => (name in params ? String(params[name]) : placeholder));
