import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type S3Config } from '../../src/server/config';
import { users } from '../../src/server/db/schema';
import { allowingFileLinks } from '../../src/server/plugins/headers';
import { removeOrphanFiles } from '../../src/server/services/orphan-files';
import { FILE_KINDS } from '../../src/server/storage/file-keys';
import { createS3Storage, s3LinkOrigin, type S3Storage } from '../../src/server/storage/s3-storage';
import { multipartForm, resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, makePerson } from './fixtures';
import { TINY_PNG } from '../fixtures/images';

// The file store on an S3-compatible object store, against s3rver (a local S3 server) on a free port:
// the store's five methods, its presigned links (fetched for real: bytes, headers, expiry), its paging,
// the orphan sweep through it, the S3_ settings, and the whole app uploading and previewing through it.
//
// s3rver runs in a child process with OpenSSL's legacy provider: it makes its ListObjectsV2 continuation
// tokens with DES, which Node's OpenSSL 3 refuses otherwise, so every second page would be a 500. It
// checks a presigned link's expiry but not its signature (SigV4 checking is not implemented in s3rver),
// so a tampered link is the real store's to refuse and is not tested here.

const BUCKET = 'kincare-test';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
const MINUTE = 60_000;

/** Starts s3rver on a free port; it stops when its stdin closes (the test process ended, however). */
const S3RVER_SCRIPT = `
const S3rver = require('s3rver');
const server = new S3rver({
  address: '127.0.0.1', port: 0, silent: true, directory: process.env.S3RVER_DIR,
  configureBuckets: [{ name: process.env.S3RVER_BUCKET }],
});
server.run().then((address) => process.stdout.write(address.port + '\\n'));
process.stdin.on('end', () => server.close().then(() => process.exit(0)));
process.stdin.resume();
`;

let server: ChildProcessByStdio<Writable, Readable, null>;
let serverDir: string;
let endpoint: string;
let prefixCounter = 0;
const stores: S3Storage[] = [];

beforeAll(async () => {
  serverDir = mkdtempSync(join(tmpdir(), 'kincare-s3rver-'));
  server = spawn(process.execPath, ['--openssl-legacy-provider', '-e', S3RVER_SCRIPT], {
    env: { ...process.env, S3RVER_DIR: serverDir, S3RVER_BUCKET: BUCKET },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const stopped = once(server, 'exit').then(() => {
    throw new Error('s3rver stopped before it listened');
  });
  const [firstLine] = (await Promise.race([once(server.stdout, 'data'), stopped])) as [Buffer];
  endpoint = `http://127.0.0.1:${Number.parseInt(firstLine.toString(), 10)}`;
});
afterAll(async () => {
  for (const store of stores) store.close();
  const exited = once(server, 'exit');
  server.stdin.end();
  await exited;
  rmSync(serverDir, { recursive: true, force: true });
});

/** s3rver's settings, each test under a folder of its own so that lists see only that test's objects. */
function settings(overrides: Partial<S3Config> = {}): S3Config {
  prefixCounter += 1;
  return {
    bucket: BUCKET,
    region: 'us-east-1',
    endpoint,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, // s3rver's one account
    forcePathStyle: true,
    prefix: `run-${process.pid}-${prefixCounter}/`,
    ...overrides,
  };
}

function storeFor(config: S3Config, options: Parameters<typeof createS3Storage>[1] = {}): S3Storage {
  const store = createS3Storage(config, options);
  stores.push(store);
  return store;
}

/** The bucket as any S3 client sees it, beside the store. */
function rawClient(config: S3Config): S3Client {
  return new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: true,
    credentials: config.credentials,
  });
}

async function objectNames(config: S3Config): Promise<string[]> {
  const client = rawClient(config);
  try {
    const answer = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: config.prefix }));
    return (answer.Contents ?? []).map((object) => object.Key ?? '');
  } finally {
    client.destroy();
  }
}

describe('the S3 store', () => {
  it('puts bytes under the folder with their type, reads them back, and removes them', async () => {
    const config = settings();
    const store = storeFor(config);
    const { key } = await store.put('lab', PDF, 'application/pdf', '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b');
    expect(key).toMatch(/^lab\/[0-9a-f]{32}\/[0-9a-f]{32}\.pdf$/);
    expect(await objectNames(config)).toEqual([`${config.prefix}${key}`]);
    const read = await store.read(key);
    expect(read?.contentType).toBe('application/pdf');
    expect(read?.bytes.equals(PDF)).toBe(true);
    await store.remove(key);
    expect(await store.read(key)).toBeNull();
    expect(await objectNames(config)).toEqual([]);
    await expect(store.remove(key)).resolves.toBeUndefined(); // removing twice is fine
  });

  it('stores the content type on the object, for anyone reading the bucket directly', async () => {
    const config = settings();
    const { key } = await storeFor(config).put(
      'prescription',
      TINY_PNG,
      'image/png',
      '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b',
    );
    const client = rawClient(config);
    const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: `${config.prefix}${key}` }));
    client.destroy();
    expect(head.ContentType).toBe('image/png');
  });

  it('lists every file of a kind over several pages, with when each was written', async () => {
    const store = storeFor(settings(), { pageSize: 2 });
    const before = Date.now() - MINUTE;
    const keys = [];
    for (let i = 0; i < 5; i += 1)
      keys.push((await store.put('lab', PDF, 'application/pdf', '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b')).key);
    const other = await store.put('profile', TINY_PNG, 'image/png', '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b');
    const listed = await store.list('lab');
    expect(listed.map((file) => file.key).sort()).toEqual([...keys].sort());
    for (const file of listed) {
      expect(file.modifiedAt.getTime()).toBeGreaterThan(before);
      expect(file.modifiedAt.getTime()).toBeLessThan(Date.now() + MINUTE);
    }
    expect((await store.list('profile')).map((file) => file.key)).toEqual([other.key]);
    expect(await store.list('appointment')).toEqual([]);
  });

  it('keeps installs apart by their folder, and lists nothing of a foreign object in its own', async () => {
    const config = settings();
    const store = storeFor(config);
    const neighbour = storeFor(settings());
    const { key } = await store.put('lab', PDF, 'application/pdf', '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b');
    const client = rawClient(config);
    await client.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: `${config.prefix}lab/notes.txt`, Body: 'not ours' }),
    );
    client.destroy();
    expect((await store.list('lab')).map((file) => file.key)).toEqual([key]);
    expect(await neighbour.list('lab')).toEqual([]);
    expect(await neighbour.read(key)).toBeNull();
  });

  it.each([
    '../jwt-secret',
    'profile/../../jwt-secret',
    'profile/0123456789abcdef0123456789abcdef.exe',
    'other/0123456789abcdef0123456789abcdef.png',
    '/etc/passwd',
    'lab/notes.txt',
    'profile/0123456789abcdef0123456789abcdef.png/..',
  ])('refuses the key %j', async (key) => {
    const config = settings();
    const store = storeFor(config);
    const client = rawClient(config);
    await client.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: `${config.prefix}lab/notes.txt`, Body: 'x' }),
    );
    client.destroy();
    expect(await store.read(key)).toBeNull();
    await expect(store.signedUrl(key)).rejects.toThrow(/not a file key/);
    await expect(store.remove(key)).resolves.toBeUndefined();
    expect(await objectNames(config)).toEqual([`${config.prefix}lab/notes.txt`]);
  });
});

describe('presigned links', () => {
  it('serve an image inline with its type, never cached, from the store itself', async () => {
    const store = storeFor(settings());
    const { key } = await store.put('profile', TINY_PNG, 'image/png', '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b');
    const link = await store.signedUrl(key);
    expect(link.startsWith(`${endpoint}/${BUCKET}/`)).toBe(true);
    expect(new URL(link).searchParams.get('X-Amz-Expires')).toBe('900');
    const response = await fetch(link);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-disposition')).toBe('inline');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(Buffer.from(await response.arrayBuffer()).equals(TINY_PNG)).toBe(true);
  });

  it('serve a PDF as a download named after its kind', async () => {
    const store = storeFor(settings());
    const { key } = await store.put('lab', PDF, 'application/pdf', '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b');
    const response = await fetch(await store.signedUrl(key, 60));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="kincare-lab.pdf"');
    expect(Buffer.from(await response.arrayBuffer()).equals(PDF)).toBe(true);
  });

  it('work until their time is up, and not after', async () => {
    const config = settings();
    const { key } = await storeFor(config).put(
      'lab',
      PDF,
      'application/pdf',
      '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b',
    );
    const signedAgo = (ms: number) => storeFor(config, { now: () => Date.now() - ms });
    const fresh = await signedAgo(50_000).signedUrl(key, 60);
    expect(new URL(fresh).searchParams.get('X-Amz-Expires')).toBe('60');
    expect((await fetch(fresh)).status).toBe(200);
    expect((await fetch(await signedAgo(70_000).signedUrl(key, 60))).status).toBe(403);
    expect((await fetch(await storeFor(config).signedUrl(key, -1))).status).toBe(403);
  });

  it('answer 404 once the file is gone', async () => {
    const store = storeFor(settings());
    const { key } = await store.put('profile', TINY_PNG, 'image/png', '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b');
    const link = await store.signedUrl(key);
    await store.remove(key);
    expect((await fetch(link)).status).toBe(404);
  });

  it('point at the origin the CSP allows, path-style or virtual-hosted', async () => {
    const config = settings();
    const link = await storeFor(config).signedUrl('lab/0123456789abcdef0123456789abcdef.pdf');
    expect(new URL(link).origin).toBe(await s3LinkOrigin(config));
    const hosted = settings({ endpoint: 'https://objects.example.net', forcePathStyle: false });
    expect(await s3LinkOrigin(hosted)).toBe(`https://${BUCKET}.objects.example.net`);
    const aws = settings({ endpoint: undefined, forcePathStyle: false, region: 'eu-west-1' });
    expect(await s3LinkOrigin(aws)).toBe(`https://${BUCKET}.s3.eu-west-1.amazonaws.com`);
  });
});

describe('S3_ settings', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'kincare-config-'));
    return () => rmSync(dataDir, { recursive: true, force: true });
  });
  const load = (env: NodeJS.ProcessEnv) =>
    loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'a-secret-that-is-at-least-32-characters-long', ...env });

  it('keep files on disk without S3_BUCKET, and read every setting with it', () => {
    expect(load({}).s3).toBeUndefined();
    expect(load({ S3_BUCKET: 'kincare-files' }).s3).toEqual({
      bucket: 'kincare-files',
      region: 'us-east-1',
      endpoint: undefined,
      credentials: undefined,
      forcePathStyle: false,
      prefix: '',
    });
    expect(
      load({
        S3_BUCKET: 'kincare-files',
        S3_REGION: 'eu-central-1',
        S3_ENDPOINT: 'http://minio.local:9000',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'true',
        S3_PREFIX: 'kincare/production',
      }).s3,
    ).toEqual({
      bucket: 'kincare-files',
      region: 'eu-central-1',
      endpoint: 'http://minio.local:9000',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      forcePathStyle: true,
      prefix: 'kincare/production/',
    });
  });

  it.each([
    [{ S3_BUCKET: 'Kincare_Files' }, 'S3_BUCKET'],
    [{ S3_BUCKET: 'ab' }, 'S3_BUCKET'],
    [{ S3_BUCKET: 'kincare', S3_REGION: 'EU West' }, 'S3_REGION'],
    [{ S3_BUCKET: 'kincare', S3_ENDPOINT: 'minio.local:9000' }, 'S3_ENDPOINT'],
    [{ S3_BUCKET: 'kincare', S3_ENDPOINT: 'ftp://minio.local' }, 'S3_ENDPOINT'],
    [{ S3_BUCKET: 'kincare', S3_FORCE_PATH_STYLE: 'yes' }, 'S3_FORCE_PATH_STYLE'],
    [{ S3_BUCKET: 'kincare', S3_PREFIX: '../other' }, 'S3_PREFIX'],
    [{ S3_BUCKET: 'kincare', S3_PREFIX: '/kincare' }, 'S3_PREFIX'],
    [{ S3_BUCKET: 'kincare', S3_ACCESS_KEY_ID: 'id' }, 'S3_SECRET_ACCESS_KEY'],
    [{ S3_BUCKET: 'kincare', S3_SECRET_ACCESS_KEY: 'secret' }, 'S3_ACCESS_KEY_ID'],
    [{ S3_ENDPOINT: 'http://minio.local:9000' }, 'S3_ENDPOINT: needs S3_BUCKET'],
  ])('stop the server for %j, naming %s', (env, name) => {
    expect(() => load(env)).toThrow(ConfigError);
    expect(() => load(env)).toThrow(name);
  });
});

describe('the app on the S3 store', () => {
  let ctx: TestContext;
  let config: S3Config;
  beforeAll(async () => {
    config = settings();
    ctx = await startTestApp({
      S3_BUCKET: config.bucket,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
      S3_PREFIX: config.prefix,
    });
  });
  afterAll(async () => ctx.close());
  beforeEach(async () => {
    await resetDatabase(ctx);
    for (const kind of FILE_KINDS) {
      for (const file of await ctx.app.storage.list(kind)) await ctx.app.storage.remove(file.key);
    }
  });

  function upload(token: string, type: string, bytes: Buffer) {
    const form = multipartForm({}, [
      { field: 'image', filename: 'report.pdf', contentType: 'application/pdf', bytes },
    ]);
    return as(ctx, { token }, { method: 'POST', url: `/api/upload-image?type=${type}`, ...form });
  }

  it('uploads a lab report into the bucket and previews it through a presigned link', async () => {
    const patient = await makePerson(ctx, 'Patient');
    const response = await upload(patient.token, 'lab', PDF);
    expect(response.statusCode).toBe(201);
    const [file] = response.json().files as { key: string; url: string }[];
    expect(file?.key).toMatch(/^lab\/[0-9a-f]{32}\/[0-9a-f]{32}\.pdf$/);
    expect(await objectNames(config)).toContain(`${config.prefix}${file?.key}`);
    expect(existsSync(join(ctx.dataDir, 'files'))).toBe(false); // nothing on disk

    const preview = await as(ctx, patient, {
      method: 'GET',
      url: `/api/upload-image/preview_image?key=${encodeURIComponent(file?.key ?? '')}`,
    });
    expect(preview.statusCode).toBe(200);
    const link: string = preview.json().url;
    expect(link.startsWith(`${endpoint}/${BUCKET}/${config.prefix}lab/`)).toBe(true);
    const served = await fetch(link);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await served.arrayBuffer()).equals(PDF)).toBe(true);

    const stranger = await makePerson(ctx, 'Patient', 'Stranger');
    const refused = await as(ctx, stranger, {
      method: 'GET',
      url: `/api/upload-image/preview_image?key=${encodeURIComponent(file?.key ?? '')}`,
    });
    expect(refused.statusCode).toBe(404);
  });

  it('serves no /api/files route, and lets the page show images from the store', async () => {
    const patient = await makePerson(ctx, 'Patient');
    const { key } = await ctx.app.storage.put(
      'profile',
      TINY_PNG,
      'image/png',
      '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b',
    );
    await ctx.database.db.update(users).set({ photoKey: key }).where(eq(users.id, patient.userId));
    const profile = await as(ctx, patient, { method: 'GET', url: '/api/auth/profile' });
    const photoUrl: string = profile.json().data.photo_url;
    expect(photoUrl.startsWith(`${endpoint}/`)).toBe(true);
    const photo = await fetch(photoUrl);
    expect(photo.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await photo.arrayBuffer()).equals(TINY_PNG)).toBe(true);

    const csp = profile.headers['content-security-policy'];
    expect(csp).toContain(`img-src 'self' data: blob: ${endpoint};`);
    expect(csp).toContain(`connect-src 'self' ${endpoint};`);
    expect(csp).toContain("object-src 'none'");
    const route = await ctx.app.inject({
      method: 'GET',
      url: `/api/files/${key}?expires=9999999999&signature=x`,
    });
    expect(route.statusCode).toBe(404);
  });

  it('sweeps orphan files from the bucket, and keeps those in use', async () => {
    const patient = await makePerson(ctx, 'Patient');
    const orphanUpload = (await upload(patient.token, 'lab', PDF)).json().files[0].key as string;
    const leftover = (
      await ctx.app.storage.put('appointment', PDF, 'application/pdf', '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b')
    ).key;
    const photo = (
      await ctx.app.storage.put('profile', TINY_PNG, 'image/png', '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b')
    ).key;
    await ctx.database.db.update(users).set({ photoKey: photo }).where(eq(users.id, patient.userId));

    const sweep = (offset: number) =>
      removeOrphanFiles(ctx.database.db, ctx.app.storage, new Date(Date.now() + offset));
    expect(await sweep(-MINUTE)).toBe(0); // too new to touch
    expect(await sweep(MINUTE)).toBe(2);
    expect(await ctx.app.storage.read(orphanUpload)).toBeNull();
    expect(await ctx.app.storage.read(leftover)).toBeNull();
    expect(await ctx.app.storage.read(photo)).not.toBeNull();
    expect(await objectNames(config)).toEqual([`${config.prefix}${photo}`]);
  });
});

describe('the page CSP', () => {
  it('gains the store origin in img-src and connect-src only', () => {
    const policy = "default-src 'self';img-src 'self' data: blob:;connect-src 'self';object-src 'none'";
    expect(allowingFileLinks(policy, 'https://files.example.net')).toBe(
      "default-src 'self';img-src 'self' data: blob: https://files.example.net;connect-src 'self' https://files.example.net;object-src 'none'",
    );
  });
});
