/**
 * The `data` of the inventory topics alerts are raised from, as docs/events.md lists them (only the fields
 * read here).
 */
export interface ScriptDetected {
  script_id: string;
  src: string;
  host: string | null;
  status: string;
  hash: string | null;
  page_url: string;
  session_id: string;
}

export interface ScriptHashChanged {
  script_id: string;
  src: string;
  previous_hash: string | null;
  new_hash: string | null;
  authorized_hash: string | null;
  unauthorized_change: boolean;
  page_url: string;
  session_id?: string;
}

export interface HeaderChange {
  name: string;
  change_type: 'added' | 'removed' | 'changed';
  old_value: string | null;
  new_value: string | null;
}

export interface HeadersChanged {
  page: string;
  page_url: string;
  changes: HeaderChange[];
}

interface Seen {
  page_url: string;
  session_id: string;
}

export interface CspViolation extends Seen {
  directive: string;
  blocked_uri: string;
  source_file: string | null;
}

export interface SensitiveFieldAccessed extends Seen {
  script_id: string;
  src: string;
  field: string;
  script_authorized: boolean;
}

export interface IframeUnexpected extends Seen {
  origin: string;
  host: string;
  expected: string[];
}

export interface RecipientMismatched extends Seen {
  method: string;
  key_hash: string;
  pinned: number;
}
