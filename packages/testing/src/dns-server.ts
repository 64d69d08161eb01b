// A real DNS server on loopback for tests: answers TXT queries from records the test publishes and
// withdraws at run time (domain verification). Unknown names get NXDOMAIN, like a real zone.
// It listens on UDP and TCP at the same port, as resolvers expect: an answer too large for a UDP
// datagram is sent truncated, and the resolver asks again over TCP.
import type { AddressInfo, Socket } from 'node:net';
import dns2 from 'dns2';

/** One TXT record: a string, or the character-strings it travels as (joined, they are one value). */
export type TxtValue = string | readonly string[];

export interface TxtDnsServer {
  port: number;
  /** `127.0.0.1:<port>`, ready for `DNS_SERVERS`. */
  server: string;
  /**
   * Sets the TXT records of a name (each value one record). Strings longer than 255 bytes are
   * split into character-strings, as DNS requires and real zones do.
   */
  publish(name: string, values: readonly TxtValue[]): void;
  withdraw(name: string): void;
  close(): Promise<void>;
}

const NXDOMAIN = 3;
const MAX_CHARACTER_STRING = 255;
const HOST = '127.0.0.1';

type Resource = Parameters<InstanceType<typeof dns2.Packet>['answers']['push']>[0];
type Handler = Parameters<typeof dns2.createTCPServer>[0];
// dns2's declarations demand `toBuffer` on answers, but its encoder serialises plain records by
// type; for TXT, `data` may be a list of character-strings.
const txt = (name: string, data: Buffer[]): Resource =>
  ({ name, type: dns2.Packet.TYPE.TXT, class: dns2.Packet.CLASS.IN, ttl: 1, data }) as unknown as Resource;

function characterStrings(value: TxtValue): Buffer[] {
  const parts = typeof value === 'string' ? [value] : value;
  return parts.flatMap((part) => {
    const bytes = Buffer.from(part, 'utf8');
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += MAX_CHARACTER_STRING) chunks.push(bytes.subarray(i, i + MAX_CHARACTER_STRING));
    return chunks.length > 0 ? chunks : [Buffer.alloc(0)];
  });
}

export async function startTxtDnsServer(): Promise<TxtDnsServer> {
  const records = new Map<string, Buffer[][]>();
  const key = (name: string): string => name.toLowerCase().replace(/\.$/, '');
  const handle: Handler = (request, send) => {
    const response = dns2.Packet.createResponseFromRequest(request);
    const question = request.questions[0];
    const values = question ? records.get(key(question.name)) : undefined;
    if (!question || !values) {
      response.header.rcode = NXDOMAIN;
    } else if (question.type === dns2.Packet.TYPE.TXT) {
      for (const data of values) response.answers.push(txt(question.name, data));
    }
    void send(response);
  };
  const { udp, tcp, port } = await listenOnOnePort(handle);
  // A resolver may keep its TCP connection open; closing must not wait for it.
  const connections = new Set<Socket>();
  tcp.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  return {
    port,
    server: `${HOST}:${port}`,
    publish: (name, values) => { records.set(key(name), values.map(characterStrings)); },
    withdraw: (name) => { records.delete(key(name)); },
    close: async () => {
      for (const socket of connections) socket.destroy();
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        new Promise<void>((resolve) => tcp.close(() => resolve())),
      ]);
    },
  };
}

// The UDP port is ephemeral; its TCP twin may be taken by someone else, so try a few ports.
async function listenOnOnePort(handle: Handler) {
  for (let attempt = 0; ; attempt++) {
    const udp = dns2.createUDPServer(handle);
    await udp.listen(0, HOST);
    const { port } = udp.address();
    const tcp = dns2.createTCPServer(handle);
    const bound = await new Promise<boolean>((resolve) => {
      tcp.once('error', () => resolve(false));
      tcp.listen(port, HOST, () => resolve(true));
    });
    if (bound && (tcp.address() as AddressInfo).port === port) return { udp, tcp, port };
    udp.close();
    tcp.close();
    if (attempt >= 10) throw new Error('the test DNS server found no port free for both UDP and TCP');
  }
}
