/** Checks of setting values beyond their schema's type: the trusted proxies, the cluster cookie's secret. */
import { isIP } from 'node:net';
import { listOf } from './setting.js';

/** `10.0.0.5, 10.1.0.0/16` → `10.0.0.5,10.1.0.0/16`, every item an address with a prefix length that fits it. */
export function proxyAddresses(text: string): string {
  const items = listOf(text);
  for (const item of items) {
    const [address = '', prefix] = item.split('/');
    const version = isIP(address);
    const bits = version === 4 ? 32 : 128;
    if (version === 0 || (prefix !== undefined && Number(prefix) > bits)) {
      throw new Error(`"${item}" is no IP address or CIDR range`);
    }
  }
  return items.join(',');
}
/**
 * The value deploy/registry.env.example shows for COOKIE_SECRET: refused, as any shorter than 32 bytes, since a
 * cluster started from the example would sign its cookies with a secret everyone has read.
 */
export const COOKIE_SECRET_PLACEHOLDER = 'change-me-to-64-hex-characters';
const COOKIE_SECRET_MIN_BYTES = 32;

/** A secret the cluster cookie may be signed with (docs/decisions/0050-operator-hardening.md). */
export const isCookieSecret = (text: string): boolean =>
  text !== COOKIE_SECRET_PLACEHOLDER && Buffer.byteLength(text, 'utf8') >= COOKIE_SECRET_MIN_BYTES;
