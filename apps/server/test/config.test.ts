import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  it('has working defaults for the embedded mode', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: undefined,
      logLevel: 'info',
      nodeEnv: 'development',
      bodyLimitBytes: 1024 * 1024,
      publicBaseUrl: 'http://localhost:3000',
      providers: 'sandbox',
      allowSandboxInProduction: false,
      workerInProcess: true,
      workerConcurrency: 2,
      devtoolsDeterrent: true,
    });
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.webDistDir).toMatch(/apps\/web\/dist$/);
  });

  it('takes the public address from PORT when PUBLIC_BASE_URL is unset', () => {
    expect(loadConfig({ PORT: '8080' }).publicBaseUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PORT: '8080', PUBLIC_BASE_URL: '' }).publicBaseUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PORT: '8080', PUBLIC_BASE_URL: 'https://kyfw.example.cn' }).publicBaseUrl).toBe(
      'https://kyfw.example.cn',
    );
  });

  it('parses every variable and treats empty values as unset', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: '/var/lib/kyfw',
      DATABASE_URL: 'postgres://kyfw:pw@db.internal:5432/kyfw',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      BODY_LIMIT_BYTES: '65536',
      PUBLIC_BASE_URL: 'https://www.kyfw.example.cn/',
      PROVIDERS: 'sandbox',
      ALLOW_SANDBOX_IN_PRODUCTION: 'true',
      WORKER_IN_PROCESS: 'false',
      WORKER_CONCURRENCY: '8',
      JOB_LEASE_SECONDS: '120',
      WEB_DIST_DIR: '/srv/web',
      DEVTOOLS_DETERRENT: 'off',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/var/lib/kyfw',
      databaseUrl: 'postgres://kyfw:pw@db.internal:5432/kyfw',
      logLevel: 'warn',
      nodeEnv: 'production',
      bodyLimitBytes: 65536,
      publicBaseUrl: 'https://www.kyfw.example.cn',
      providers: 'sandbox',
      allowSandboxInProduction: true,
      workerInProcess: false,
      workerConcurrency: 8,
      jobLeaseMs: 120_000,
      webDistDir: '/srv/web',
      devtoolsDeterrent: false,
    });
    expect(loadConfig({ PORT: '', LOG_LEVEL: '', WORKER_IN_PROCESS: '' })).toMatchObject({
      port: 3000,
      logLevel: 'info',
      workerInProcess: true,
      jobLeaseMs: 60_000,
    });
  });

  it('keeps files in DATA_DIR/files unless STORAGE=s3 names a store, whose endpoint, bucket and keys are required', () => {
    expect(loadConfig({}).storage).toEqual({ kind: 'local' });
    expect(
      loadConfig({
        STORAGE: 's3',
        S3_ENDPOINT: 'https://s3.cn-north-1.amazonaws.com.cn',
        S3_BUCKET: 'kyfw-files',
        S3_ACCESS_KEY_ID: 'AKID',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_PREFIX: 'kyfw/',
      }).storage,
    ).toEqual({
      kind: 's3',
      endpoint: 'https://s3.cn-north-1.amazonaws.com.cn',
      bucket: 'kyfw-files',
      region: 'us-east-1',
      accessKeyId: 'AKID',
      secretAccessKey: 'secret',
      prefix: 'kyfw/',
    });
    const problems = problemsOf({
      STORAGE: 's3',
      S3_BUCKET: 'Bad_Bucket',
      S3_SECRET_ACCESS_KEY: 'hidden-value',
    });
    expect(problems).toEqual(
      expect.arrayContaining(['S3_BUCKET: must be a bucket name (3-63 of a-z 0-9 . -) (got "Bad_Bucket")']),
    );
    expect(problemsOf({ STORAGE: 's3' })).toEqual([
      'S3_ENDPOINT: required with STORAGE=s3',
      'S3_BUCKET: required with STORAGE=s3',
      'S3_ACCESS_KEY_ID: required with STORAGE=s3',
      'S3_SECRET_ACCESS_KEY: required with STORAGE=s3',
    ]);
    expect(problemsOf({ STORAGE: 'nfs' })).toEqual(['STORAGE: must be local or s3 (got "nfs")']);
  });

  it('lists all bad variables in one error', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      DATABASE_URL: 'mysql://localhost/kyfw',
      LOG_LEVEL: 'loud',
      NODE_ENV: 'staging',
      BODY_LIMIT_BYTES: '-1',
      PUBLIC_BASE_URL: 'not a url',
      PROVIDERS: 'fake',
      WORKER_IN_PROCESS: 'yes',
      WORKER_CONCURRENCY: '0',
      JOB_LEASE_SECONDS: '5',
      DEVTOOLS_DETERRENT: 'maybe',
    });
    const names = problems.map((p) => p.split(':')[0]);
    expect(names.sort()).toEqual(
      [
        'PORT',
        'DATABASE_URL',
        'LOG_LEVEL',
        'NODE_ENV',
        'BODY_LIMIT_BYTES',
        'PUBLIC_BASE_URL',
        'PROVIDERS',
        'WORKER_IN_PROCESS',
        'WORKER_CONCURRENCY',
        'JOB_LEASE_SECONDS',
        'DEVTOOLS_DETERRENT',
      ].sort(),
    );
    expect(problems.find((p) => p.startsWith('PORT'))).toContain('"eighty"');
  });

  it('refuses sandbox providers in production unless explicitly allowed', () => {
    const refusal = /^PROVIDERS: .*sandbox.*NODE_ENV=production/;
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([expect.stringMatching(refusal)]);
    expect(problemsOf({ NODE_ENV: 'production', PORT: 'x' })).toEqual([
      expect.stringMatching(/^PORT: /),
      expect.stringMatching(refusal),
    ]);
    expect(problemsOf({ NODE_ENV: 'production', ALLOW_SANDBOX_IN_PRODUCTION: 'true' })).toEqual([]);
    // Real providers pass this rule (their own credentials are checked by their modules).
    expect(problemsOf({ NODE_ENV: 'production', PROVIDERS: 'real' }).filter((p) => refusal.test(p))).toEqual(
      [],
    );
  });

  it('reports the whole list in the error message', () => {
    expect(() => loadConfig({ PORT: '70000', WORKER_CONCURRENCY: '1000' })).toThrow(
      /Invalid environment configuration:\n {2}- PORT: .*\n {2}- WORKER_CONCURRENCY: /,
    );
  });
});

describe('secrets in configuration errors', () => {
  it('names a bad secret variable without echoing its value', () => {
    let message = '';
    try {
      loadConfig({
        NODE_ENV: 'test',
        WECHATPAY_APIV3_KEY: 'short-secret-value',
        DATABASE_URL: 'not a url p@ss',
      });
    } catch (error) {
      message = String((error as Error).message);
    }
    expect(message).toContain('DATABASE_URL');
    expect(message).not.toContain('short-secret-value');
    expect(message).not.toContain('p@ss');
  });
});
