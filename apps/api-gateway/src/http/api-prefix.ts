/** The interface version lives in the path (spec, Versioning). */
export const API_PREFIX = 'api/v1';
