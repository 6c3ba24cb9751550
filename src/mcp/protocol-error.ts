/**
 * MCP protocol errors whose JSON-RPC `message` is the bare text. The SDK's `McpError`
 * constructor prefixes its message with `MCP error <code>: `, the server sends that message
 * as the JSON-RPC error's `message` (Protocol's `_onrequest`), and the SDK client builds a
 * new `McpError` from it, so a client would read the prefix twice
 * (`MCP error -32602: MCP error -32602: …`). The code travels in `error.code`; the message
 * (JSON-RPC 2.0 section 5.1: "a short description of the error") holds only the words.
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';

/** An `McpError` (so the SDK answers it with its code and data) whose `message` is `text` alone. */
export class ProtocolError extends McpError {
  constructor(code: number, text: string, data?: unknown) {
    super(code, text, data);
    this.message = text;
  }
}

/** A protocol error: `code` (JSON-RPC or MCP error code), `text` sent as the message, `data` when given. */
export function protocolError(code: number, text: string, data?: unknown): McpError {
  return new ProtocolError(code, text, data);
}

/**
 * The JSON-RPC `message` for an error thrown while answering a request: its message without
 * the SDK's `MCP error <code>: ` prefix (an `McpError` the SDK itself built has one), or
 * `Internal error` for a thrown value with no message.
 */
export function wireMessage(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof message !== 'string' || message === '') return 'Internal error';
  const prefix = `MCP error ${String(code)}: `;
  return message.startsWith(prefix) ? message.slice(prefix.length) : message;
}

/**
 * `error` as the SDK should send it: an `McpError` with the SDK's prefix becomes the same
 * error with its bare message; anything else is returned as it is (the SDK answers it with
 * -32603 and its message).
 */
export function withWireMessage(error: unknown): unknown {
  if (!(error instanceof McpError) || error instanceof ProtocolError) return error;
  return new ProtocolError(error.code, wireMessage(error), error.data);
}
