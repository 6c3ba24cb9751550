/**
 * Paging cursors of the MCP server's paginated methods (`resources/list`, `skills/list`,
 * `resources/directory/read`): opaque to the client, and only a cursor this server gave out
 * is accepted (MCP specification, "Pagination": an invalid cursor is -32602; SEP-2640,
 * "Enumeration via skills/list" and "resources/directory/read": pagination mirrors
 * `resources/list`).
 */
import { invalidParams, showValue } from './params.js';

/** A cursor: the offset of the next page in decimal, base64url without padding. */
export const encodeCursor = (offset: number): string => Buffer.from(String(offset)).toString('base64url');

/**
 * The offset a cursor stands for, when it is one this server gives out for a list of `total`
 * items in pages of `pageSize`: the canonical encoding of a positive multiple of `pageSize`
 * below `total`. Anything else (not base64url, padding, another spelling of a number, zero,
 * negative, out of range, off the page grid) is refused instead of read as some page, so a
 * client never gets the first page again for a cursor it mangled.
 * @param method the request's method, for the message (`resources/list`)
 * @throws McpError -32602 naming `params.cursor`
 */
export function offsetOfCursor(cursor: string, pageSize: number, total: number, method: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('latin1');
  const offset = /^[1-9]\d{0,15}$/u.test(text) ? Number(text) : Number.NaN;
  if (encodeCursor(offset) === cursor && offset % pageSize === 0 && offset < total) return offset;
  throw invalidParams(`Invalid params for ${method}: params.cursor is ${showValue(cursor)} (expected the nextCursor of the previous ${method} page, or no cursor)`);
}

/**
 * One page of `items` from `cursor` (undefined: the first page), with `nextCursor` when more
 * follow. Same errors as {@link offsetOfCursor}.
 */
export function pageOf<T>(items: readonly T[], cursor: string | undefined, pageSize: number, method: string): { page: T[]; nextCursor?: string } {
  const start = cursor === undefined ? 0 : offsetOfCursor(cursor, pageSize, items.length, method);
  const next = start + pageSize;
  return { page: items.slice(start, next), ...(next < items.length ? { nextCursor: encodeCursor(next) } : {}) };
}
