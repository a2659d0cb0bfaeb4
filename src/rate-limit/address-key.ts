import { isIPv4, isIPv6 } from 'node:net';

function expandIPv6(address: string): string[] | undefined {
  const [head = '', tail, extra] = address.split('::');
  if (extra !== undefined) return undefined;
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return undefined;
  return [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right].map((group) => group.toLowerCase().replace(/^0+(?=.)/, ''));
}

/**
 * What an address is counted as: an IPv4 address as itself (also when IPv4-mapped), an IPv6 address
 * by its /64 network, since one subscriber usually holds a whole /64 and could otherwise
 * step through 2^64 addresses to dodge a per-address limit.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped?.[1] && isIPv4(mapped[1])) return mapped[1];
  if (isIPv4(ip) || !isIPv6(ip)) return ip;
  const groups = expandIPv6(ip.split('%')[0] ?? ip);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : ip;
}
