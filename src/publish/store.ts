/**
 * The object store a publish writes to, as a small interface (STYLE.md habit 4): the S3 API
 * (src/publish/s3-store.ts) today; anything with keyed objects and per-object headers fits.
 * Keys are whole keys (prefix included); an implementation never rewrites them.
 */

/** The headers stored with an object and sent back when it is read. */
export interface ObjectHeaders {
  /** `Content-Type`, e.g. `application/json; charset=utf-8`. */
  contentType: string;
  /** `Cache-Control`, e.g. `public, max-age=60, must-revalidate`. */
  cacheControl: string;
}

/** One bucket of an object store. Every method throws a `LoadoutError` with a hint on failure. */
export interface ObjectStore {
  /** Where objects go, for messages: `s3://<bucket>` (and the endpoint when not AWS). */
  readonly location: string;
  /** The object's bytes, or `undefined` when there is no object at `key` (the bucket exists). */
  get(key: string): Promise<Uint8Array | undefined>;
  /** Writes (or replaces) the object at `key` with `body` and `headers`. */
  put(key: string, body: Uint8Array, headers: ObjectHeaders): Promise<void>;
  /** Deletes the object at `key`; deleting a missing object succeeds. */
  delete(key: string): Promise<void>;
}
