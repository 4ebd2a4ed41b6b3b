import type { Document, Frozen } from '../read-store.port';
import { freezeDocument } from '../freeze-document';
import { copyDocument } from './copy-document';

/** Stored versions frozen through and through: handed out as they are. */
const shareable = new WeakSet<Document>();

/**
 * A stored version for a caller that only reads it: the version itself, deep-frozen the first time it is handed
 * out (stored versions are never changed in place, so freezing one changes nothing for the store, and an update
 * builds the next version from it by copying what it changes). A version that holds a value freezing does not fix
 * (a Date) goes out as a frozen copy instead, as `find` would copy it.
 */
export function frozenVersion<T extends Document>(doc: Document): Frozen<T> {
  if (shareable.has(doc)) return doc as Frozen<T>;
  if (freezeDocument(doc)) {
    shareable.add(doc);
    return doc as Frozen<T>;
  }
  const copy = copyDocument<T>(doc);
  freezeDocument(copy);
  return copy as Frozen<T>;
}
