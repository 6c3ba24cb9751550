/**
 * A real S3-protocol server for tests: s3rver 3.7.1 on 127.0.0.1 with an ephemeral port and
 * a temporary folder, stopped when the test ends, plus a plain client to read back what was
 * stored (DESIGN.md section 9 "Object storage in tests"). s3rver's one account is
 * `S3RVER`/`S3RVER`; other keys get `InvalidAccessKeyId`. Bucket names need 3+ characters;
 * address buckets by path (`forcePathStyle`).
 */
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { onTestFinished } from 'vitest';
import { makeTempDir } from './temp.js';

/** s3rver's built-in credentials. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/** An object read back: bytes and the headers the server returns. */
export interface StoredObject {
  body: Buffer;
  contentType: string | undefined;
  cacheControl: string | undefined;
}

/** A running server. */
export interface S3Server {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  /** Every key in `bucket`, sorted. */
  listKeys(bucket: string): Promise<string[]>;
  /** One object with its headers. */
  read(bucket: string, key: string): Promise<StoredObject>;
  /** The headers of one object (HEAD). */
  head(bucket: string, key: string): Promise<{ contentType: string | undefined; cacheControl: string | undefined }>;
}

/** Starts s3rver with `buckets` created; it stops when the current test finishes. */
export async function startS3Server(buckets: string[]): Promise<S3Server> {
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: makeTempDir('loadout-s3-'), configureBuckets: buckets.map((name) => ({ name })) });
  const { port } = await server.run();
  onTestFinished(() => server.close());
  const endpoint = `http://127.0.0.1:${port}`;
  const client = quietClient(endpoint);
  onTestFinished(() => client.destroy());
  return {
    endpoint,
    async listKeys(bucket) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
        keys.push(...(page.Contents ?? []).map((c) => c.Key as string));
        token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
      } while (token !== undefined);
      return keys.sort();
    },
    async read(bucket, key) {
      const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return { body: Buffer.from(await (answer.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray()), contentType: answer.ContentType, cacheControl: answer.CacheControl };
    },
    async head(bucket, key) {
      const answer = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return { contentType: answer.ContentType, cacheControl: answer.CacheControl };
    },
  };
}

/**
 * A client of the test process. The SDK warns once per process on Node 20 (it will need 22);
 * creating this first client with the SDK's switch on marks the warning as given, and the
 * switch is put back at once, so that child processes (the CLI under test) do not inherit it.
 */
function quietClient(endpoint: string): S3Client {
  const name = 'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED';
  const before = process.env[name];
  process.env[name] = 'true';
  try {
    return new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3RVER_CREDENTIALS });
  } finally {
    if (before === undefined) delete process.env[name];
    else process.env[name] = before;
  }
}
