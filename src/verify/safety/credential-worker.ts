/**
 * The worker thread of `CredentialScanner`: runs {@link findBatchCredentials} over each batch.
 * In: {@link CredentialBatch}; out: `{ready: true}` once loaded, then one
 * {@link CredentialReplies} per batch.
 */
import { parentPort } from 'node:worker_threads';
import type { CredentialBatch, CredentialReplies, CredentialReply } from './credential-scanner.js';
import { findBatchCredentials } from './credentials.js';

const port = parentPort;
if (port === null) throw new Error('credential-worker runs as a worker thread of CredentialScanner');

// As the checks' reader decodes files: a leading byte-order mark is kept, so offsets agree.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

port.on('message', ({ requests }: CredentialBatch) => {
  findBatchCredentials(requests.map((r) => ({ paths: r.paths, starts: r.starts, content: decoder.decode(r.utf8) }))).then(
    (found) => port.postMessage({ replies: requests.map((r, k): CredentialReply => ({ id: r.id, findings: found[k] ?? [] })) } satisfies CredentialReplies),
    (error: unknown) => port.postMessage({ replies: requests.map((r): CredentialReply => ({ id: r.id, error: error instanceof Error ? error.message : String(error) })) } satisfies CredentialReplies),
  );
});
port.postMessage({ ready: true });
