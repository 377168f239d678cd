/**
 * What the MongoDB store's classifier makes of the driver's failures (docs/decisions/0073-store-refusals-answered-503.md):
 * the engine gone, unreachable or closed under an operation is a refusal (503); anything else stays the registry's
 * own fault (500), so that a defect is never hidden as an outage.
 */
import { MongoNetworkError, MongoServerClosedError, MongoServerError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { mongoRefusal } from '../../../src/store/mongo/connection.js';
import { StoreUnavailableError } from '../../../src/store/types.js';

describe('mongoRefusal', () => {
  it('refuses for a connection lost, a server closed under the operation, a backend gone', () => {
    const backendGone = new MongoServerError({ message: 'failed to connect to `user=postgres`', code: 1 });
    for (const error of [new MongoNetworkError('connection 2 closed'), new MongoServerClosedError(), backendGone]) {
      expect(mongoRefusal(error), error.name).toBeInstanceOf(StoreUnavailableError);
    }
  });

  it("leaves a rejected command and the registry's own errors alone", () => {
    const invalid = new MongoServerError({ message: 'unknown operator: $foo', code: 2 });
    for (const error of [invalid, new Error('the clock document is missing'), new TypeError('x is undefined')]) {
      expect(mongoRefusal(error), String(error)).toBeUndefined();
    }
  });
});
