/**
 * The worker thread of `CredentialScanner`: runs {@link findJoinedCredentials} for each request.
 * In: {@link CredentialBatch}; out: `{ready: true}` once loaded, then one
 * {@link CredentialReplies} per batch.
 */
import { parentPort } from 'node:worker_threads';
import type { CredentialBatch, CredentialReplies, CredentialReply } from './credential-scanner.js';
import { findJoinedCredentials } from './credentials.js';

const port = parentPort;
if (port === null) throw new Error('credential-worker runs as a worker thread of CredentialScanner');

// As the checks' reader decodes files: a leading byte-order mark is kept, so offsets agree.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

port.on('message', ({ requests }: CredentialBatch) => {
  const scans = requests.map((request) =>
    findJoinedCredentials({ paths: request.paths, starts: request.starts, content: decoder.decode(request.utf8) }).then(
      (findings): CredentialReply => ({ id: request.id, findings }),
      (error: unknown): CredentialReply => ({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
    ),
  );
  void Promise.all(scans).then((replies) => port.postMessage({ replies } satisfies CredentialReplies));
});
port.postMessage({ ready: true });
