// Log retention on an S3 bucket (s3rver): the deleted log's object is gone from the bucket too.
import { retentionCases } from './retention-cases.ts';
import { startTestS3 } from '../helpers/s3.ts';

retentionCases(async () => {
  const s3 = await startTestS3();
  return { env: s3.env('retention/'), stop: () => s3.stop() };
});
