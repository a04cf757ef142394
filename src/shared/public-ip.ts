import net from 'node:net';

/** Private, loopback, link-local, CGNAT, ULA … : addresses no remote receiver sees us by. */
const NON_PUBLIC = new net.BlockList();
for (const [net4, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  NON_PUBLIC.addSubnet(net4, bits, 'ipv4');
for (const [net6, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  NON_PUBLIC.addSubnet(net6, bits, 'ipv6');

export function isPublicIp(ip: string): boolean {
  const family = net.isIPv4(ip) ? 'ipv4' : net.isIPv6(ip) ? 'ipv6' : null;
  if (family === null) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  if (mapped !== undefined) return isPublicIp(mapped);
  return !NON_PUBLIC.check(ip, family);
}
