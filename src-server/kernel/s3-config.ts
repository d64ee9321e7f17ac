// Which bucket and credentials uploads use, from the environment. Credentials come as one set: the S3_* keys
// (with S3_SESSION_TOKEN when they are temporary), or else the standard AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY
// and AWS_SESSION_TOKEN, as STS, SSO and `aws configure export-credentials` hand them out. Never a mix, so a
// stray AWS_SESSION_TOKEN in a shell cannot break static keys given for MinIO.

import type { S3Options } from '../storage/s3.ts'
import type { Env } from './env.ts'

export type S3Env = Partial<
  Pick<
    Env,
    | 'S3_BUCKET'
    | 'S3_REGION'
    | 'S3_ENDPOINT'
    | 'S3_PUBLIC_URL'
    | 'S3_ACCESS_KEY_ID'
    | 'S3_SECRET_ACCESS_KEY'
    | 'S3_SESSION_TOKEN'
    | 'AWS_ACCESS_KEY_ID'
    | 'AWS_SECRET_ACCESS_KEY'
    | 'AWS_SESSION_TOKEN'
  >
>

function credentials(env: S3Env) {
  if (env.S3_ACCESS_KEY_ID || env.S3_SECRET_ACCESS_KEY) {
    if (!env.S3_ACCESS_KEY_ID || !env.S3_SECRET_ACCESS_KEY) return null
    return {
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      sessionToken: env.S3_SESSION_TOKEN,
    }
  }
  if (!env.AWS_ACCESS_KEY_ID || !env.AWS_SECRET_ACCESS_KEY) return null
  return {
    accessKeyId: env.AWS_ACCESS_KEY_ID,
    secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
    sessionToken: env.AWS_SESSION_TOKEN,
  }
}

/** The bucket's settings, or null when uploads stay on local disk (no bucket, or no complete credentials). */
export function s3OptionsFromEnv(env: S3Env): S3Options | null {
  if (!env.S3_BUCKET) return null
  const keys = credentials(env)
  if (!keys) return null
  return {
    bucket: env.S3_BUCKET,
    region: env.S3_REGION ?? 'us-east-1',
    endpoint: env.S3_ENDPOINT,
    publicUrl: env.S3_PUBLIC_URL,
    ...keys,
  }
}

/** What readEnv reports when a bucket is set without a complete set of credentials. */
export function s3CredentialProblems(env: S3Env): string[] {
  if (!env.S3_BUCKET || credentials(env)) return []
  const usingS3Keys = Boolean(env.S3_ACCESS_KEY_ID || env.S3_SECRET_ACCESS_KEY) || !env.AWS_ACCESS_KEY_ID
  const names = usingS3Keys
    ? (['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const)
    : (['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'] as const)
  return names.filter((name) => !env[name]).map((name) => `  ${name}: required when S3_BUCKET is set`)
}
