export const STORE_COMMANDS = {} as const;
