import { isIPv4, isIPv6 } from 'node:net';

// Which kind of address an IP address is, so that the server sends pushes only to the public internet
// (README.md beside this file). Every range set aside for a special purpose and not reachable across
// the internet is refused; an IPv6 address that carries an IPv4 one (mapped ::ffff:a.b.c.d, translated
// ::ffff:0:a.b.c.d, NAT64 64:ff9b::a.b.c.d) is the kind of the IPv4 address it carries.

export type AddressKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link-local'
  | 'unique-local'
  | 'unspecified'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'reserved'
  | 'not-an-address';

/** The kind in words, for the message that refuses it. */
export const ADDRESS_KIND_WORDS: Record<AddressKind, string> = {
  public: 'a public address',
  loopback: 'a loopback address (this machine itself)',
  private: 'a private network address',
  shared: 'a carrier-grade NAT address (100.64.0.0/10)',
  'link-local': 'a link-local address (the cloud metadata service among them)',
  'unique-local': 'a unique local IPv6 address (fc00::/7)',
  unspecified: 'the unspecified address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  documentation: 'an address reserved for documentation',
  reserved: 'a reserved address that is not on the public internet',
  'not-an-address': 'not an IP address',
};

type Range = { bytes: readonly number[]; bits: number; kind: AddressKind };

const range = (bytes: readonly number[], bits: number, kind: AddressKind): Range => ({ bytes, bits, kind });

/** Most specific first: the first range that holds the address names its kind. */
const IPV4_RANGES: readonly Range[] = [
  range([0, 0, 0, 0], 32, 'unspecified'),
  range([255, 255, 255, 255], 32, 'broadcast'),
  range([0], 8, 'reserved'), // "this network": Linux connects 0.x.x.x to this machine
  range([10], 8, 'private'),
  range([100, 64], 10, 'shared'),
  range([127], 8, 'loopback'),
  range([169, 254], 16, 'link-local'),
  range([172, 16], 12, 'private'),
  range([192, 0, 0], 24, 'reserved'),
  range([192, 0, 2], 24, 'documentation'),
  range([192, 88, 99], 24, 'reserved'), // the retired 6to4 relay anycast
  range([192, 168], 16, 'private'),
  range([198, 18], 15, 'reserved'), // benchmarking, and the fake-IP range of some proxies
  range([198, 51, 100], 24, 'documentation'),
  range([203, 0, 113], 24, 'documentation'),
  range([224], 4, 'multicast'),
  range([240], 4, 'reserved'),
];

const IPV6_RANGES: readonly Range[] = [
  range([], 128, 'unspecified'), // ::
  range([...Array<number>(15).fill(0), 1], 128, 'loopback'), // ::1
  range([], 96, 'reserved'), // ::a.b.c.d, the retired IPv4-compatible form
  range([0, 0x64, 0xff, 0x9b, 0, 1], 48, 'private'), // local-use NAT64
  range([0x01, 0x00], 64, 'reserved'), // discard-only
  range([0x20, 0x01, 0x0d, 0xb8], 32, 'documentation'),
  range([0x20, 0x01], 23, 'reserved'), // IETF protocol assignments, Teredo among them
  range([0x20, 0x02], 16, 'reserved'), // 6to4, which hides an IPv4 address of any kind
  range([0x3f, 0xff], 20, 'documentation'),
  range([0xfc], 7, 'unique-local'),
  range([0xfe, 0x80], 10, 'link-local'),
  range([0xfe, 0xc0], 10, 'private'), // the retired site-local range
  range([0xff], 8, 'multicast'),
];

/** IPv6 prefixes whose last 32 bits are an IPv4 address that decides the kind. */
const IPV4_CARRIERS: readonly Range[] = [
  range([...Array<number>(10).fill(0), 0xff, 0xff], 96, 'public'), // ::ffff:a.b.c.d
  range([...Array<number>(8).fill(0), 0xff, 0xff, 0, 0], 96, 'public'), // ::ffff:0:a.b.c.d
  range([0, 0x64, 0xff, 0x9b], 96, 'public'), // 64:ff9b::a.b.c.d (NAT64)
];

function holds(prefix: Range, address: readonly number[]): boolean {
  const whole = Math.floor(prefix.bits / 8);
  for (let index = 0; index < whole; index += 1) {
    if ((address[index] ?? 0) !== (prefix.bytes[index] ?? 0)) return false;
  }
  const rest = prefix.bits % 8;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((address[whole] ?? 0) & mask) === ((prefix.bytes[whole] ?? 0) & mask);
}

function ipv4Bytes(text: string): number[] {
  return text.split('.').map(Number);
}

/** The 16 bytes of a valid IPv6 address (one net.isIPv6 accepts), its zone (%eth0) dropped. */
function ipv6Bytes(text: string): number[] {
  let rest = text.replace(/%.*$/, '');
  let tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(rest);
  if (dotted?.[1]) {
    tail = ipv4Bytes(dotted[1]);
    rest = rest.slice(0, -dotted[1].length);
    // "::ffff:1.2.3.4" leaves "::ffff:", "1::1.2.3.4" leaves "1::": a trailing single colon goes.
    if (rest.endsWith(':') && !rest.endsWith('::')) rest = rest.slice(0, -1);
  }
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const [head = '', tailGroups] = rest.split('::');
  const before = groups(head);
  const after = tailGroups === undefined ? [] : groups(tailGroups);
  const missing = 8 - tail.length / 2 - before.length - after.length;
  const all = [...before, ...Array<number>(tailGroups === undefined ? 0 : missing).fill(0), ...after];
  return [...all.flatMap((group) => [group >> 8, group & 0xff]), ...tail];
}

function kindOfIPv4(bytes: readonly number[]): AddressKind {
  return IPV4_RANGES.find((prefix) => holds(prefix, bytes))?.kind ?? 'public';
}

/**
 * The kind of an IP address written as DNS gives it or as a URL's host holds it (dotted IPv4, or IPv6
 * with or without brackets). Other spellings of IPv4 (2130706433, 0x7f.1) are not addresses here: WHATWG
 * URL parsing turns them into dotted ones first.
 */
export function addressKind(address: string): AddressKind {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIPv4(bare)) return kindOfIPv4(ipv4Bytes(bare));
  if (!isIPv6(bare)) return 'not-an-address';
  const bytes = ipv6Bytes(bare);
  if (IPV4_CARRIERS.some((prefix) => holds(prefix, bytes))) return kindOfIPv4(bytes.slice(12));
  const special = IPV6_RANGES.find((prefix) => holds(prefix, bytes));
  if (special) return special.kind;
  // Only 2000::/3 is global unicast; the rest of the space is not handed out.
  return ((bytes[0] ?? 0) & 0xe0) === 0x20 ? 'public' : 'reserved';
}
