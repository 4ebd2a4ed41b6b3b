/** A failed webhook attempt's outcome (the notifier's fixed words, ATTEMPT_ERRORS, and `http_<status>`), as a sentence. */
export const WEBHOOK_OUTCOMES_PT_BR = {
  'webhook-error.timeout': 'o servidor do webhook não respondeu a tempo.',
  'webhook-error.tls': 'a conexão segura (TLS) com o servidor do webhook falhou, por exemplo por um certificado inválido.',
  'webhook-error.refused': 'o servidor do webhook recusou ou encerrou a conexão.',
  'webhook-error.dns': 'o nome do servidor do webhook não foi encontrado.',
  'webhook-error.blocked': 'o endereço do webhook é de uma rede privada ou reservada, para onde o serviço não envia.',
  'webhook-error.http': 'o servidor do webhook respondeu com o status HTTP {status}.',
};

export const WEBHOOK_OUTCOMES_EN: Record<keyof typeof WEBHOOK_OUTCOMES_PT_BR, string> = {
  'webhook-error.timeout': 'the webhook server did not answer in time.',
  'webhook-error.tls': 'the secure (TLS) connection to the webhook server failed, for example on an invalid certificate.',
  'webhook-error.refused': 'the webhook server refused or closed the connection.',
  'webhook-error.dns': "the webhook server's name was not found.",
  'webhook-error.blocked': 'the webhook address is in a private or reserved network, where the service does not send.',
  'webhook-error.http': 'the webhook server answered with HTTP status {status}.',
};
