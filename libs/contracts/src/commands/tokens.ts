export const TOKEN_COMMANDS = {
  tokenRecordUse: 'inventory.token.record-use',
} as const;
