/**
 * A refused field's sentence by the shared validation's reason (FieldRefusal in @pss/contracts), shown beside the
 * field's label, so it does not name the field; the numbers and lists are the validation's own.
 */
export const FIELD_REFUSALS_PT_BR = {
  'field-refused.credentials': 'não pode ter usuário nem senha: as entregas se autenticam pela assinatura.',
  'field-refused.https_url': 'deve ser um endereço https de no máximo {max} caracteres.',
  'field-refused.empty': 'não pode ficar em branco.',
  'field-refused.too_long': 'deve ter no máximo {max} caracteres.',
  'field-refused.event_types': 'escolha apenas entre estes eventos: {values}.',
  'field-refused.one_of': 'deve ser um destes valores: {values}.',
  'field-refused.boolean': 'deve ser sim ou não.',
  'field-refused.list_size': 'deve ter de 1 a {max} itens, um por linha; deixe em branco para qualquer um.',
  'field-refused.item_length': 'cada item deve ter de 1 a {max} caracteres.',
  'field-refused.host_name': 'cada item deve ser um nome de servidor, sem https:// nem caminho, podendo começar com *.',
  'field-refused.path_start': 'cada item deve ser um padrão de caminho começando com /.',
  'field-refused.at_least': 'deve ser um número maior ou igual a {min}.',
  'field-refused.between': 'deve ser um número de {min} a {max}.',
  'field-refused.whole_between': 'deve ser um número inteiro de {min} a {max}.',
  'field-refused.page_pattern': 'cada padrão de URL deve ser um caminho começando com /, por exemplo /checkout/*.',
  'field-refused.too_many': 'uma loja tem no máximo {max} páginas de pagamento.',
  'field-refused.method_form': 'cada método deve ter de 1 a 32 letras, dígitos, _ ou -, por exemplo pix.',
  'field-refused.justification_required': 'a justificativa é obrigatória: diga por que este script é necessário na página de pagamento.',
};

export const FIELD_REFUSALS_EN: Record<keyof typeof FIELD_REFUSALS_PT_BR, string> = {
  'field-refused.credentials': 'must not carry a user name or password: deliveries are authenticated by their signature.',
  'field-refused.https_url': 'must be an https address of at most {max} characters.',
  'field-refused.empty': 'must not be blank.',
  'field-refused.too_long': 'must be at most {max} characters long.',
  'field-refused.event_types': 'choose only among these events: {values}.',
  'field-refused.one_of': 'must be one of these values: {values}.',
  'field-refused.boolean': 'must be yes or no.',
  'field-refused.list_size': 'must have 1 to {max} items, one per line; leave it blank to match any.',
  'field-refused.item_length': 'each item must be 1 to {max} characters long.',
  'field-refused.host_name': 'each item must be a host name, without https:// or a path, optionally starting with *.',
  'field-refused.path_start': 'each item must be a path pattern starting with /.',
  'field-refused.at_least': 'must be a number of at least {min}.',
  'field-refused.between': 'must be a number from {min} to {max}.',
  'field-refused.whole_between': 'must be a whole number from {min} to {max}.',
  'field-refused.page_pattern': 'each URL pattern must be a path starting with /, e.g. /checkout/*.',
  'field-refused.too_many': 'a store has at most {max} payment pages.',
  'field-refused.method_form': 'each method must be 1 to 32 letters, digits, _ or -, e.g. pix.',
  'field-refused.justification_required': 'a justification is required: say why this script is needed on the payment page.',
};
