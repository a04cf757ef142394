// Shared by the inbound tests: the whole appliance with the fake DNS, SMTP senders, polling.
import crypto from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer';
import nodemailer from 'nodemailer';
import type { Appliance } from './appliance';
import type { FakeDns } from './dns-server';

/** A message as nodemailer builds it, ending in CRLF (what the client then sends, byte for byte). */
export async function compose(options: ConstructorParameters<typeof MailComposer>[0]): Promise<Buffer> {
  const built = await new MailComposer(options).compile().build();
  return built.subarray(-2).toString() === '\r\n' ? built : Buffer.concat([built, Buffer.from('\r\n')]);
}

/** Sends raw bytes over SMTP to the MX, with STARTTLS (the self-signed certificate is accepted). */
export async function sendRaw(
  app: Appliance,
  raw: Buffer,
  envelope: { from: string; to: string[] },
): Promise<{ response: string; accepted: unknown[]; rejected: unknown[] }> {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: app.ports.smtp,
    secure: false,
    requireTLS: true,
    name: 'client.example.org',
    tls: { rejectUnauthorized: false },
  });
  try {
    const info = (await transport.sendMail({ envelope, raw })) as {
      response: string;
      accepted: unknown[];
      rejected: unknown[];
    };
    return info;
  } finally {
    transport.close();
  }
}

export interface InboundSummary {
  id: string;
  subject: string | null;
  domainId: string | null;
  read: boolean;
  spfResult: string | null;
  dkimResult: string | null;
  dmarcResult: string | null;
  authenticated: boolean;
  attachmentCount: number;
  /** The message could not be parsed (docs/inbound.md, "Messages that cannot be parsed"). */
  unparsed: boolean;
  unparsedReason: string | null;
}

/** Polls GET /v1/inbound until `predicate` holds for a message (worker processing is asynchronous). */
export async function waitForInbound(
  app: Appliance,
  token: string,
  predicate: (m: InboundSummary) => boolean,
  timeoutMs = 20_000,
): Promise<InboundSummary> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await app.api.get<{ data: InboundSummary[] }>('/v1/inbound?limit=100', { token });
    const found = res.body.data.find(predicate);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`no inbound message matched within ${timeoutMs} ms`);
}

/** GET with the raw response bytes (raw message, attachments). */
export async function fetchBytes(
  app: Appliance,
  token: string,
  path: string,
): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const res = await fetch(`${app.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** An RSA key published as a DKIM record in the fake DNS. */
export function publishDkimKey(dns: FakeDns, domain: string, selector: string): string {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const p = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  dns.set(`${selector}._domainkey.${domain}`, 'TXT', [`v=DKIM1; k=rsa; p=${p}`]);
  return privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/** PATCHes a domain's receiving settings. */
export async function setReceiving(
  app: Appliance,
  token: string,
  domainId: string,
  body: { receiveEnabled?: boolean; inboundLabel?: string; addresses?: string[] },
): Promise<void> {
  const res = await app.api.patch(`/v1/domains/${domainId}`, { token, body });
  if (res.status !== 200) throw new Error(`PATCH domain: ${res.status} ${res.text}`);
}
