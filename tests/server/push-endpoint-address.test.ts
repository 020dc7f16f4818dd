import { describe, expect, it } from 'vitest';
import { addressKind, type AddressKind } from '../../src/server/push/address-ranges';
import { checkPushEndpoint, type HostResolver } from '../../src/server/push/sender';

// Where the server may send a push: only to hosts on the public internet, checked on the address (IPv4
// and IPv6, in every spelling a URL or DNS gives) and on what a host name resolves to. Names here are
// resolved by a resolver the test gives (this machine has no DNS for real names); none is connected to.

/** A resolver that knows only these names, and says which it was asked. */
function resolverOf(names: Record<string, string[]>): HostResolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string) => {
    asked.push(hostname);
    return names[hostname] ?? [];
  };
  return Object.assign(resolve, { asked });
}

describe('addressKind', () => {
  const cases: [string, AddressKind][] = [
    // IPv4
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['142.250.185.74', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'reserved'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['11.0.0.1', 'public'],
    ['172.15.255.255', 'public'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.0.1', 'private'],
    ['192.169.0.1', 'public'],
    ['100.63.255.255', 'public'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['100.128.0.1', 'public'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['198.18.0.1', 'reserved'],
    ['198.19.255.255', 'reserved'],
    ['198.20.0.1', 'public'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    // IPv6
    ['2001:4860:4860::8888', 'public'],
    ['2a00:1450:4001:80b::200a', 'public'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fec0::1', 'private'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['ff05::1:3', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001::1', 'reserved'], // Teredo
    ['2002:7f00:1::1', 'reserved'], // 6to4 of 127.0.0.1
    ['100::1', 'reserved'],
    ['::7f00:1', 'reserved'], // the retired IPv4-compatible ::127.0.0.1
    ['4000::1', 'reserved'], // outside 2000::/3
    ['64:ff9b:1::a00:1', 'private'],
    // IPv6 forms carrying an IPv4 address are that address's kind.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['[::ffff:7f00:1]', 'loopback'],
    ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:192.168.1.1', 'private'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['::ffff:8.8.8.8', 'public'],
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['64:ff9b::808:808', 'public'],
    // Not addresses
    ['push.example', 'not-an-address'],
    ['2130706433', 'not-an-address'],
    ['0x7f.1', 'not-an-address'],
    ['127.1', 'not-an-address'],
    ['1.2.3.256', 'not-an-address'],
    ['', 'not-an-address'],
  ];
  it.each(cases)('%s is %s', (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });
});

describe('checkPushEndpoint', () => {
  const strict = (resolveHost: HostResolver = resolverOf({})) => ({ allowInsecure: false, resolveHost });

  it('takes an https endpoint whose host resolves only to public addresses, and gives them back to connect to', async () => {
    const resolveHost = resolverOf({ 'push.example': ['142.250.185.74', '2a00:1450:4001:80b::200a'] });
    expect(await checkPushEndpoint('https://push.example/send/abc', strict(resolveHost))).toEqual({
      ok: true,
      addresses: [
        { address: '142.250.185.74', family: 4 },
        { address: '2a00:1450:4001:80b::200a', family: 6 },
      ],
    });
    expect(resolveHost.asked).toEqual(['push.example']);
    expect(await checkPushEndpoint('https://8.8.8.8/abc', strict())).toMatchObject({
      ok: true,
      addresses: [{ address: '8.8.8.8', family: 4 }],
    });
    expect(await checkPushEndpoint('https://[2001:4860:4860::8888]/abc', strict())).toMatchObject({
      ok: true,
      addresses: [{ address: '2001:4860:4860::8888', family: 6 }],
    });
  });

  it('refuses address literals off the internet, in every spelling a URL normalises', async () => {
    const resolveHost = resolverOf({});
    const refused: [string, RegExp][] = [
      ['https://127.0.0.1/push', /127\.0\.0\.1 is a loopback address/],
      ['https://2130706433/push', /127\.0\.0\.1 is a loopback address/],
      ['https://0x7f.1/push', /127\.0\.0\.1 is a loopback address/],
      ['https://0177.0.0.1/push', /127\.0\.0\.1 is a loopback address/],
      ['https://127.1/push', /127\.0\.0\.1 is a loopback address/],
      ['https://0x7f000001/push', /127\.0\.0\.1 is a loopback address/],
      ['https://[::1]/push', /\[::1\] is a loopback address/],
      ['https://[::ffff:127.0.0.1]/push', /loopback/],
      ['https://169.254.169.254/latest/meta-data/', /link-local/],
      ['https://[::ffff:169.254.169.254]/latest/meta-data/', /link-local/],
      ['https://[fe80::1]/push', /link-local/],
      ['https://10.0.0.1/push', /private network/],
      ['https://172.16.5.4/push', /private network/],
      ['https://192.168.1.1/push', /private network/],
      ['https://100.64.0.1/push', /carrier-grade NAT/],
      ['https://[fc00::1]/push', /unique local/],
      ['https://[fd00::1]/push', /unique local/],
      ['https://0.0.0.0/push', /unspecified/],
      ['https://[::]/push', /unspecified/],
      ['https://224.0.0.1/push', /multicast/],
      ['https://[ff02::1]/push', /multicast/],
      ['https://255.255.255.255/push', /broadcast/],
    ];
    for (const [endpoint, problem] of refused) {
      const check = await checkPushEndpoint(endpoint, strict(resolveHost));
      expect(check, endpoint).toEqual({
        ok: false,
        reason: 'not-public',
        problem: expect.stringMatching(problem),
      });
    }
    expect(resolveHost.asked).toEqual([]);
  });

  it('refuses localhost by name, without asking a resolver', async () => {
    const resolveHost = resolverOf({ localhost: ['8.8.8.8'] });
    for (const endpoint of [
      'https://localhost/push',
      'https://LOCALHOST./push',
      'https://push.localhost/abc',
    ]) {
      expect(await checkPushEndpoint(endpoint, strict(resolveHost)), endpoint).toMatchObject({
        ok: false,
        reason: 'not-public',
        problem: expect.stringMatching(/is this server itself/),
      });
    }
    expect(resolveHost.asked).toEqual([]);
  });

  it('refuses a name that resolves to an internal address, even beside a public one', async () => {
    const resolveHost = resolverOf({
      'metadata.example': ['169.254.169.254'],
      'split.example': ['8.8.8.8', '10.0.0.7'],
      'mapped.example': ['::ffff:127.0.0.1'],
      'ula.example': ['fd00::5'],
    });
    expect(await checkPushEndpoint('https://metadata.example/x', strict(resolveHost))).toEqual({
      ok: false,
      reason: 'not-public',
      problem:
        "The push endpoint's host metadata.example resolves to 169.254.169.254, a link-local address (the cloud metadata service among them); push services are on the public internet.",
    });
    expect(await checkPushEndpoint('https://split.example/x', strict(resolveHost))).toMatchObject({
      reason: 'not-public',
      problem: expect.stringContaining('resolves to 10.0.0.7'),
    });
    expect(await checkPushEndpoint('https://mapped.example/x', strict(resolveHost))).toMatchObject({
      reason: 'not-public',
    });
    expect(await checkPushEndpoint('https://ula.example/x', strict(resolveHost))).toMatchObject({
      reason: 'not-public',
    });
  });

  it('refuses a name that does not resolve, or whose lookup fails', async () => {
    expect(await checkPushEndpoint('https://nowhere.example/x', strict())).toEqual({
      ok: false,
      reason: 'unresolvable',
      problem: "The push endpoint's host nowhere.example could not be found.",
    });
    const failing: HostResolver = () => Promise.reject(new Error('SERVFAIL'));
    expect(await checkPushEndpoint('https://broken.example/x', strict(failing))).toMatchObject({
      ok: false,
      reason: 'unresolvable',
    });
    const silent: HostResolver = () => new Promise<string[]>(() => undefined);
    expect(await checkPushEndpoint('https://silent.example/x', strict(silent))).toMatchObject({
      ok: false,
      reason: 'unresolvable',
    });
  });

  it('refuses what is not an https URL before looking anything up', async () => {
    const resolveHost = resolverOf({ 'push.example': ['8.8.8.8'] });
    expect(await checkPushEndpoint('http://push.example/x', strict(resolveHost))).toMatchObject({
      reason: 'invalid',
      problem: 'The push endpoint must be an https: address.',
    });
    expect(await checkPushEndpoint('https://user:pw@push.example/x', strict(resolveHost))).toMatchObject({
      reason: 'invalid',
    });
    expect(await checkPushEndpoint('not a url', strict(resolveHost))).toMatchObject({ reason: 'invalid' });
    expect(resolveHost.asked).toEqual([]);
  });

  it('lets http and loopback through for the test push service, and nothing else internal', async () => {
    const resolveHost = resolverOf({ 'push.test': ['127.0.0.1'], 'lan.test': ['192.168.1.9'] });
    const insecure = { allowInsecure: true, resolveHost };
    expect(await checkPushEndpoint('http://127.0.0.1:9/push', insecure)).toMatchObject({ ok: true });
    expect(await checkPushEndpoint('http://[::1]:9/push', insecure)).toMatchObject({ ok: true });
    expect(await checkPushEndpoint('http://localhost:9/push', insecure)).toMatchObject({
      ok: true,
      addresses: [{ address: '127.0.0.1', family: 4 }],
    });
    expect(await checkPushEndpoint('http://push.test:9/push', insecure)).toMatchObject({ ok: true });
    for (const endpoint of [
      'http://lan.test/push',
      'http://169.254.169.254/latest',
      'http://10.0.0.1/push',
      'http://[fd00::1]/push',
    ]) {
      expect(await checkPushEndpoint(endpoint, insecure), endpoint).toMatchObject({
        ok: false,
        reason: 'not-public',
      });
    }
  });
});
