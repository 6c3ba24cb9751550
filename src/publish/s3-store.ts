/**
 * The object store over the S3 API with `@aws-sdk/client-s3` (AWS S3, Cloudflare R2, MinIO,
 * Google Cloud Storage's XML API). Credentials, region and endpoint come from the SDK's
 * standard chain (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`,
 * `AWS_PROFILE`, `AWS_REGION`, `AWS_ENDPOINT_URL_S3`, `~/.aws/config`) unless given here.
 *
 * Transient failures (throttling, 5xx, reset or refused connections, timeouts) are retried by
 * the SDK's retry strategy (`standard` unless `AWS_RETRY_MODE` says otherwise): exponential backoff with full jitter, base 100 ms, cap
 * 20 s (AWS SDKs and Tools Reference Guide, "Retry behavior"). Bodies are buffers, so every
 * retry can send them again, and sockets that stall are cut by timeouts so that a stall becomes
 * a retryable error instead of a hang. Only operations that need no listing permission or
 * multi-object delete are used (GetObject, PutObject, DeleteObject), which every S3-compatible
 * store implements.
 */
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { LoadoutError } from '../catalogue/errors.js';
import type { ObjectHeaders, ObjectStore } from './store.js';

/** Options of {@link createS3Store}; anything left out comes from the SDK's standard chain. */
export interface S3StoreOptions {
  /** Bucket name (3 to 63 characters of `a-z0-9.-`; `_` allowed for other stores). */
  bucket: string;
  /** Endpoint URL for S3-compatible stores, e.g. `https://<account>.r2.cloudflarestorage.com`. */
  endpoint?: string;
  /** Region (R2: `auto`). */
  region?: string;
  /** Address buckets as `<endpoint>/<bucket>` instead of `<bucket>.<endpoint>` (MinIO, s3rver). */
  forcePathStyle?: boolean;
  /** Attempts per request, retries included; default: the SDK's chain (`AWS_MAX_ATTEMPTS`, else 3). */
  maxAttempts?: number;
  /** Explicit credentials (tests); default: the SDK's chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

/** An {@link ObjectStore} that also releases its connections. */
export interface S3Store extends ObjectStore {
  /** Closes the kept-alive connections (call once done, or the process lingers). */
  close(): void;
}

const BUCKET = /^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/u;
/** A connection that is not up in 10 s, or a socket idle for 60 s, fails (and is retried). */
const CONNECTION_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 60_000;

/**
 * Creates the store. Nothing is contacted until the first call.
 * @throws LoadoutError `usage` for a malformed bucket name or endpoint.
 */
export function createS3Store(options: S3StoreOptions): S3Store {
  const { bucket } = options;
  if (!BUCKET.test(bucket) || bucket.includes('..')) {
    throw new LoadoutError('usage', `--bucket is ${JSON.stringify(bucket)} (expected a bucket name: 3 to 222 lower-case letters, digits, ".", "-" or "_", starting and ending with a letter or digit)`);
  }
  if (options.endpoint !== undefined) checkEndpoint(options.endpoint);
  const config: S3ClientConfig = {
    forcePathStyle: options.forcePathStyle === true,
    requestHandler: { connectionTimeout: CONNECTION_TIMEOUT_MS, socketTimeout: SOCKET_TIMEOUT_MS },
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
    ...(options.region === undefined ? {} : { region: options.region }),
    ...(options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts }),
    ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
  };
  const client = new S3Client(config);
  const endpoint = options.endpoint ?? process.env['AWS_ENDPOINT_URL_S3'] ?? process.env['AWS_ENDPOINT_URL'];
  const location = `s3://${bucket}${endpoint === undefined ? '' : ` at ${endpoint}`}`;
  const fail = (error: unknown, key: string): never => {
    throw storageError(error, { bucket, key, location });
  };

  return {
    location,
    async get(key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return answer.Body === undefined ? new Uint8Array() : await answer.Body.transformToByteArray();
      } catch (error) {
        if (errorName(error) === 'NoSuchKey') return undefined;
        return fail(error, key);
      }
    },
    async put(key, body, headers: ObjectHeaders) {
      try {
        await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: headers.contentType, CacheControl: headers.cacheControl }));
      } catch (error) {
        fail(error, key);
      }
    },
    async delete(key) {
      try {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      } catch (error) {
        if (errorName(error) === 'NoSuchKey') return;
        fail(error, key);
      }
    },
    close() {
      client.destroy();
    },
  };
}

function checkEndpoint(endpoint: string): void {
  let url: URL | undefined;
  try {
    url = new URL(endpoint);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username !== '' || url.password !== '') {
    throw new LoadoutError('usage', `--endpoint is ${JSON.stringify(endpoint)} (expected an http or https URL without credentials, e.g. https://<account>.r2.cloudflarestorage.com)`);
  }
}

const CREDENTIAL_ERRORS = new Set(['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'ExpiredToken', 'InvalidToken', 'TokenRefreshRequired', 'CredentialsProviderError', 'InvalidClientTokenId']);
const REGION_ERRORS = new Set(['PermanentRedirect', 'AuthorizationHeaderMalformed', 'IllegalLocationConstraintException']);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE']);

/**
 * Turns an SDK error into a `LoadoutError` that says what failed and what to do (STYLE.md
 * habit 9: wrap third-party errors at the boundary, with `cause`): a missing bucket
 * (`not_found`), refused or missing credentials, a wrong region or access denied (`config`),
 * an unreachable endpoint or any other failure after the retries (`io`).
 */
export function storageError(error: unknown, where: { bucket: string; key: string; location: string }): LoadoutError {
  const name = errorName(error);
  const message = (error as Error | undefined)?.message ?? String(error);
  const code = (error as { code?: unknown } | undefined)?.code;
  const attempts = (error as { $metadata?: { attempts?: number } } | undefined)?.$metadata?.attempts;
  const tried = attempts === undefined || attempts <= 1 ? '' : ` after ${attempts} attempts`;
  const object = `s3://${where.bucket}/${where.key}`;
  if (name === 'NoSuchBucket') {
    return new LoadoutError('not_found', `bucket ${JSON.stringify(where.bucket)} does not exist (${where.location})`, {
      hint: 'create the bucket first, or check --bucket, --endpoint (AWS_ENDPOINT_URL_S3) and --region (AWS_REGION)',
      cause: error,
    });
  }
  if (CREDENTIAL_ERRORS.has(name)) {
    return new LoadoutError('config', `the object store refused the credentials for ${object} (${name}: ${message})`, {
      hint: 'check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE): they must be keys of this store and endpoint',
      cause: error,
    });
  }
  if (/region is missing/iu.test(message) || REGION_ERRORS.has(name)) {
    return new LoadoutError('config', `the bucket's region is missing or wrong for ${object} (${name}: ${message})`, {
      hint: 'give --region or AWS_REGION: the bucket\'s AWS region, "auto" for Cloudflare R2, "us-east-1" for most others',
      cause: error,
    });
  }
  if (name === 'AccessDenied' || name === 'Forbidden' || name === 'AllAccessDisabled') {
    return new LoadoutError('config', `access denied to ${object} (${name}: ${message})`, {
      hint: 'the credentials need s3:GetObject, s3:PutObject and s3:ListBucket on the bucket (ListBucket lets a missing manifest read as missing), and s3:DeleteObject for --delete',
      cause: error,
    });
  }
  if ((typeof code === 'string' && NETWORK_CODES.has(code)) || name === 'TimeoutError' || name === 'RequestTimeout') {
    return new LoadoutError('io', `cannot reach the object store for ${object}${tried} (${typeof code === 'string' ? code : name}: ${message}; ${where.location})`, {
      hint: 'check --endpoint (or AWS_ENDPOINT_URL_S3) and the network; the manifest was not updated, so publishing again resumes safely',
      cause: error,
    });
  }
  return new LoadoutError('io', `the object store failed on ${object}${tried} (${name}: ${message})`, {
    hint: 'publishing again is safe: the manifest is written last, so the next run uploads whatever is still missing',
    cause: error,
  });
}

function errorName(error: unknown): string {
  return typeof error === 'object' && error !== null && typeof (error as { name?: unknown }).name === 'string' ? (error as { name: string }).name : 'Error';
}
