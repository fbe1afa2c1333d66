// A real S3-compatible server for the tests: s3rver (pure JavaScript, from npm) on a free port
// over HTTP, keeping its objects in a temp directory. The SDK talks to it exactly as to a
// bucket in production (path-style, SigV4, the SDK's default request checksums): nothing is mocked.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import S3rver from 's3rver';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { LogStoreConfig } from '../../src/config.ts';

/** s3rver accepts any key pair that it was told about; these are its defaults. */
export const S3_TEST_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** The log an object belongs to: its key without a segment number (s3-store.ts, segmentKey). */
export function logKeyOf(objectKey: string): string {
  return objectKey.replace(/\.\d{6}$/, '');
}

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** The store configuration for this bucket (a fresh prefix per call). */
  storeConfig(prefix?: string): Extract<LogStoreConfig, { kind: 's3' }>;
  /** Environment variables that make a `vouch` process use this bucket. */
  env(prefix?: string): Record<string, string>;
  /** Every object key in the bucket (under `prefix`). */
  keys(prefix?: string): Promise<string[]>;
  /** The keys of the logs whose objects are in the bucket (under `prefix`): one per log, however many segments. */
  logKeys(prefix?: string): Promise<string[]>;
  client: S3Client;
  /** Takes the server down (connections refused on its port) until resume(). */
  pause(): Promise<void>;
  /** The same server again: same port, same objects. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

export async function startTestS3(): Promise<TestS3> {
  const directory = await mkdtemp(join(tmpdir(), 'vouch-s3-'));
  let server: S3rver | null = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const bucket = `vouch-test-${randomBytes(4).toString('hex')}`;
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3_TEST_CREDENTIALS });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  async function keys(prefix = ''): Promise<string[]> {
    const out: string[] = [];
    let token: string | undefined;
    do {
      const r = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
      out.push(...(r.Contents ?? []).map((o) => o.Key ?? ''));
      token = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (token);
    return out.sort();
  }
  const storeConfig = (prefix = '') => ({ kind: 's3' as const, bucket, prefix, endpoint, region: 'us-east-1', forcePathStyle: true });
  return {
    endpoint,
    bucket,
    client,
    storeConfig,
    env: (prefix = '') => ({
      VOUCH_LOG_STORE: `s3://${bucket}/${prefix}`,
      VOUCH_S3_ENDPOINT: endpoint,
      VOUCH_S3_FORCE_PATH_STYLE: 'true',
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    }),
    keys,
    logKeys: async (prefix = '') => [...new Set((await keys(prefix)).map(logKeyOf))].sort(),
    async pause() {
      await server?.close();
      server = null;
    },
    async resume() {
      server = new S3rver({ address: '127.0.0.1', port, directory, silent: true });
      await server.run();
    },
    async stop() {
      client.destroy();
      await server?.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
