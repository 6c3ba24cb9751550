/**
 * The worker thread of `CredentialScanner`: runs {@link findCredentials} for each request.
 * In: {@link CredentialRequest}; out: `{ready: true}` once loaded, then one
 * {@link CredentialReply} per request.
 */
import { parentPort } from 'node:worker_threads';
import type { CredentialReply, CredentialRequest } from './credential-scanner.js';
import { findCredentials } from './credentials.js';

const port = parentPort;
if (port === null) throw new Error('credential-worker runs as a worker thread of CredentialScanner');

port.on('message', (request: CredentialRequest) => {
  findCredentials(request.files).then(
    (findings) => port.postMessage({ id: request.id, findings } satisfies CredentialReply),
    (error: unknown) => port.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies CredentialReply),
  );
});
port.postMessage({ ready: true });
