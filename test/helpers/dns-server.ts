// Fake authoritative DNS server for integration tests: one mutable in-memory zone served over
// UDP and TCP on the same loopback port, so the appliance's DNS_SERVERS setting can point at it
// and truncated (TC=1) UDP answers can be retried over TCP exactly as against a real server.
import type dgram from 'node:dgram';
import net from 'node:net';
import dns2 from 'dns2';

const { Packet } = dns2;
type Packet = dns2.Packet;

export type DnsRecordType = 'A' | 'AAAA' | 'MX' | 'TXT' | 'CNAME' | 'PTR' | 'NS';
export interface MxValue {
  exchange: string;
  priority: number;
}
/** A plain string is split into ≤255-byte character-strings; a string[] is sent as exactly those chunks. */
export type TxtValue = string | string[];
export interface DnsRecordValues {
  A: string;
  AAAA: string;
  MX: MxValue;
  TXT: TxtValue;
  CNAME: string;
  PTR: string;
  NS: string;
}
export type DnsFailure = 'SERVFAIL' | 'TIMEOUT' | 'REFUSED';
export interface DnsQuery {
  /** Lower-cased, without trailing dot. */
  name: string;
  /** Type mnemonic ('TXT', 'MX', …) or 'TYPE<n>' for types dns2 has no name for. */
  type: string;
  transport: 'udp' | 'tcp';
}

export interface FakeDns {
  readonly host: string;
  readonly port: number;
  /** "127.0.0.1:<port>", the form DNS_SERVERS and Resolver#setServers take. */
  readonly address: string;
  /** Every question received, in arrival order; truncate with `queries.length = 0`. */
  readonly queries: DnsQuery[];
  set<T extends DnsRecordType>(name: string, type: T, values: readonly DnsRecordValues[T][]): void;
  add<T extends DnsRecordType>(name: string, type: T, value: DnsRecordValues[T]): void;
  remove(name: string, type?: DnsRecordType): void;
  /** Empties the zone and drops failure injections (the query log is kept). */
  clear(): void;
  /** Every question for `name` (any type) gets this failure until unfail(). TIMEOUT never answers. */
  fail(name: string, failure: DnsFailure): void;
  unfail(name: string): void;
  close(): Promise<void>;
}

type StoredValue = DnsRecordValues[DnsRecordType];
type Zone = Map<string, Map<DnsRecordType, StoredValue[]>>;

const HOST = '127.0.0.1';
const TTL = 300;
const MAX_CNAME_HOPS = 8;
const MAX_CHARACTER_STRING = 255;

function normalizeName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

// RFC 1035 §3.3.14: a character-string is at most 255 octets, and dns2 does not split for us —
// it would write the length into a single octet and corrupt the packet. Split on bytes, not chars.
export function splitTxt(value: string): Buffer[] {
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length === 0) return [bytes];
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += MAX_CHARACTER_STRING) {
    chunks.push(bytes.subarray(i, i + MAX_CHARACTER_STRING));
  }
  return chunks;
}

// Explicit chunks are sent verbatim, so one over 255 octets would corrupt the packet rather than
// exercise split-TXT handling; fail at set-up time instead.
function assertTxtChunks(value: TxtValue): void {
  if (typeof value === 'string') return;
  for (const chunk of value) {
    const length = Buffer.byteLength(chunk, 'utf8');
    if (length > MAX_CHARACTER_STRING) {
      throw new RangeError(`fake DNS: TXT chunk of ${length} octets exceeds ${MAX_CHARACTER_STRING}`);
    }
  }
}

function rdata(type: DnsRecordType, value: StoredValue): Partial<dns2.Packet.Resource> {
  switch (type) {
    case 'A':
    case 'AAAA':
      return { address: value as string };
    case 'MX': {
      const mx = value as MxValue;
      return { exchange: normalizeName(mx.exchange), priority: mx.priority };
    }
    case 'TXT': {
      const txt = value as TxtValue;
      // dns2's TXT encoder accepts Buffers in the array even though its typings only say string.
      const chunks = typeof txt === 'string' ? splitTxt(txt) : txt.map((c) => Buffer.from(c, 'utf8'));
      return { data: chunks as unknown as string[] };
    }
    case 'NS':
      return { ns: normalizeName(value as string) };
    case 'CNAME':
    case 'PTR':
      return { domain: normalizeName(value as string) };
  }
}

function resource(name: string, type: DnsRecordType, value: StoredValue): dns2.Packet.Resource {
  return new Packet.Resource({
    name,
    type: Packet.TYPE[type],
    class: Packet.CLASS.IN,
    ttl: TTL,
    ...rdata(type, value),
  });
}

// RFC 8020: a name that only exists as the parent of other names (an "empty non-terminal", e.g.
// _domainkey.example.com) is NODATA, not NXDOMAIN; resolvers and DKIM/DMARC code care.
function nameExists(zone: Zone, name: string): boolean {
  if (zone.has(name)) return true;
  const suffix = `.${name}`;
  for (const key of zone.keys()) if (key.endsWith(suffix)) return true;
  return false;
}

function answer(
  zone: Zone,
  qname: string,
  qtype: string,
): { rcode: number; answers: dns2.Packet.Resource[] } {
  if (!nameExists(zone, qname)) return { rcode: Packet.RCODE.NXDOMAIN, answers: [] };
  const answers: dns2.Packet.Resource[] = [];
  let name = qname;
  // An authoritative server answers an A query for an alias with the CNAME plus whatever the
  // target resolves to in-zone; resolvers rely on that to avoid a second round trip.
  for (let hop = 0; hop <= MAX_CNAME_HOPS; hop++) {
    const sets = zone.get(name);
    if (sets === undefined) break;
    const cname = sets.get('CNAME');
    if (qtype !== 'CNAME' && qtype !== 'ANY' && cname?.[0] !== undefined) {
      answers.push(resource(name, 'CNAME', cname[0]));
      name = normalizeName(cname[0] as string);
      continue;
    }
    for (const [type, values] of sets) {
      if (qtype !== 'ANY' && type !== qtype) continue;
      for (const value of values) answers.push(resource(name, type, value));
    }
    break;
  }
  return { rcode: Packet.RCODE.NOERROR, answers };
}

const FAILURE_RCODE = { SERVFAIL: Packet.RCODE.SERVFAIL, REFUSED: Packet.RCODE.REFUSED } as const;

function bindUdp(socket: dgram.Socket, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, HOST, () => {
      socket.off('error', reject);
      resolve();
    });
  });
}

function listenTcp(server: net.Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeUdp(socket: dgram.Socket): Promise<void> {
  return new Promise((resolve) => socket.close(() => resolve()));
}

async function closeTcp(server: net.Server, sockets: Set<net.Socket>): Promise<void> {
  // dns2 keeps idle TCP connections for 10 s (RFC 7766) and TIMEOUT queries never finish, so
  // server.close() alone would wait for them.
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

async function bindBoth(
  handle: dns2.DnsHandler,
  sockets: Set<net.Socket>,
): Promise<{ udp: dns2.UDPServer; tcp: dns2.TCPServer; port: number }> {
  // UDP gets an ephemeral port first; TCP then tries the same number, which another process may
  // hold (the TCP and UDP port spaces are independent), so retry with a fresh pair.
  let lastError: unknown;
  for (let attempt = 0; attempt < 20; attempt++) {
    const udp = dns2.createUDPServer(handle);
    const tcp = dns2.createTCPServer(handle);
    tcp.on('connection', (socket: net.Socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    await bindUdp(udp, 0);
    const port = udp.address().port;
    try {
      await listenTcp(tcp, port);
      return { udp, tcp, port };
    } catch (err) {
      lastError = err;
      await closeUdp(udp);
    }
  }
  throw new Error('fake DNS: could not bind UDP and TCP on one port', { cause: lastError });
}

export async function startDnsServer(): Promise<FakeDns> {
  const zone: Zone = new Map();
  const failures = new Map<string, DnsFailure>();
  const queries: DnsQuery[] = [];
  const sockets = new Set<net.Socket>();

  const handle: dns2.DnsHandler = (request, send, client) => {
    const question = request.questions[0];
    const transport = client instanceof net.Socket ? 'tcp' : 'udp';
    const response: Packet = Packet.createResponseFromRequest(request);
    response.header.aa = 1;
    if (question === undefined) {
      response.header.rcode = Packet.RCODE.FORMERR;
    } else {
      const name = normalizeName(question.name);
      const type = Packet.typeName(question.type);
      queries.push({ name, type, transport });
      const failure = failures.get(name);
      if (failure === 'TIMEOUT') return;
      if (failure !== undefined) {
        response.header.rcode = FAILURE_RCODE[failure];
      } else {
        const result = answer(zone, name, type);
        response.header.rcode = result.rcode;
        response.answers = result.answers;
      }
    }
    // A send can only fail when the client vanished or we are closing; nothing to report then.
    send(response).catch(() => undefined);
  };

  const { udp, tcp, port } = await bindBoth(handle, sockets);
  // Malformed packets are reported via 'requestError'; socket errors after start must not crash tests.
  udp.on('error', () => undefined);
  tcp.on('error', () => undefined);

  const setValues = (name: string, type: DnsRecordType, values: readonly StoredValue[]): void => {
    if (type === 'TXT') for (const value of values) assertTxtChunks(value as TxtValue);
    const key = normalizeName(name);
    const sets = zone.get(key) ?? new Map<DnsRecordType, StoredValue[]>();
    if (values.length === 0) sets.delete(type);
    else sets.set(type, [...values]);
    if (sets.size === 0) zone.delete(key);
    else zone.set(key, sets);
  };

  let closed: Promise<void> | undefined;
  return {
    host: HOST,
    port,
    address: `${HOST}:${port}`,
    queries,
    set: setValues,
    add(name, type, value) {
      const existing = zone.get(normalizeName(name))?.get(type) ?? [];
      setValues(name, type, [...existing, value]);
    },
    remove(name, type) {
      const key = normalizeName(name);
      if (type === undefined) zone.delete(key);
      else setValues(key, type, []);
    },
    clear() {
      zone.clear();
      failures.clear();
    },
    fail(name, failure) {
      failures.set(normalizeName(name), failure);
    },
    unfail(name) {
      failures.delete(normalizeName(name));
    },
    close() {
      closed ??= Promise.all([closeUdp(udp), closeTcp(tcp, sockets)]).then(() => undefined);
      return closed;
    },
  };
}
