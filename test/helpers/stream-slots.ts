/**
 * The stream-slot refusal as the tests expect it. Apart from sse.ts because the fault suite imports sse.ts
 * outside vitest, where importing vitest throws.
 */
import { expect } from 'vitest';
import type { OpenedStream } from './sse.js';

/** A stream refused for want of a free slot, as the registry refuses one: 503, `Retry-After: 5`, the JSON error. */
export function expectRefusedForSlots(stream: OpenedStream): void {
  expect(stream.status).toBe(503);
  expect(stream.headers['retry-after']).toBe('5');
  expect(JSON.parse(stream.text).errors).toEqual([
    { location: 'url', name: 'stream', description: 'Too many streams, retry later' },
  ]);
}
