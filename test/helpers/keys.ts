/** The suite's fixed secrets (no vitest import: the global set-up reads them too). */
export interface TestKeys {
  broker: string;
  broker2: string;
  concierge: string;
  admin: string;
}

/** Fixed 32-hex API keys; auth.ini names: broker, broker2 [brokers]; concierge [concierge]; administrator [admins]. */
export const KEYS: TestKeys = {
  broker: '6c1c4e1a0e9b4f7c8d2b3a4f5e6d7c8b',
  broker2: 'a2b2c2d2e2f2a3b3c3d3e3f3a4b4c4d4',
  concierge: '0f0e0d0c0b0a09080706050403020100',
  admin: '1234abcd1234abcd1234abcd1234abcd',
};

export const COOKIE_SECRET = 'test-cookie-secret-0123456789abcdef0123456789abcdef';
