/**
 * The rules of openapi/rules.yaml, which the published document states in words only (a plain schema cannot hold
 * them without misleading generators): each is documented (its component's description names it and says it) and
 * enforced (a request breaking it is refused with 422 and changes nothing).
 */
import { describe, expect, it } from 'vitest';
import served from '../../src/contract/generated/openapi.json' with { type: 'json' };
import schemas from '../../src/contract/generated/schemas.json' with { type: 'json' };
import { readRules, type Rule } from '../../scripts/generate.js';
import { createAsset, toPending, validAsset } from '../helpers/fixtures.js';
import { useServer } from '../helpers/server.js';
import type { Response } from '../helpers/client.js';

const server = useServer();
const { broker, concierge } = server;
const rules = await readRules();

const LOT = 'b5ca6aa850694154b6a5f6db4e65f5da';

/** For each rule, a request that breaks it, the answer, and the error the registry must give. */
const VIOLATIONS: Record<string, () => Promise<{ response: Response; field: string; description: unknown }>> = {
  'contact-email-or-telephone': async () => {
    const asset = validAsset();
    const { telephone: _telephone, email: _email, ...contactPoint } = asset.assetCustodian.contactPoint;
    const response = await broker.post('/api/0.1/assets', {
      data: { ...asset, assetCustodian: { ...asset.assetCustodian, contactPoint } },
    });
    return {
      response,
      field: 'assetCustodian',
      description: { contactPoint: { email: ['telephone or email should be present'] } },
    };
  },
  'related-lot-when-active': async () => {
    const { id, token } = await createAsset(broker);
    await toPending(broker, id, token);
    expect((await concierge.patch(`/api/0.1/assets/${id}`, { data: { status: 'verification' } })).status).toBe(200);
    const response = await concierge.patch(`/api/0.1/assets/${id}`, { data: { status: 'active' } });
    expect((await broker.get(`/api/0.1/assets/${id}`)).json.data.status).toBe('verification');
    return { response, field: 'relatedLot', description: ['This field is required.'] };
  },
};

describe('openapi/rules.yaml', () => {
  it('has a breaking request here for every rule, and no request for a rule that is gone', () => {
    expect(Object.keys(VIOLATIONS).sort()).toEqual(Object.keys(rules).sort());
  });

  describe.each(Object.entries(rules))('%s', (name, rule: Rule) => {
    it('is documented: the description of its component names the rule', () => {
      const component = (served.components.schemas as Record<string, { description?: string }>)[rule.component];
      expect(component?.description, rule.component).toContain(`\`${name}\``);
    });

    it("is enforced through the registry's own schemas (src/contract/generated/schemas.json)", () => {
      const definition = (schemas.$defs as Record<string, Record<string, unknown>>)[rule.component] ?? {};
      for (const key of Object.keys(rule.schema)) expect(definition[key], `${rule.component}.${key}`).toBeDefined();
    });

    it('is enforced: a request that breaks it is refused with 422 naming the field', async () => {
      const { response, field, description } = await VIOLATIONS[name]!();
      expect(response.status, response.text).toBe(422);
      expect(response.json.errors).toEqual([{ location: 'body', name: field, description }]);
    });
  });

  it('the related-lot rule lets an active asset with its lot through', async () => {
    const { id, token } = await createAsset(broker);
    await toPending(broker, id, token);
    await concierge.patch(`/api/0.1/assets/${id}`, { data: { status: 'verification' } });
    const response = await concierge.patch(`/api/0.1/assets/${id}`, { data: { status: 'active', relatedLot: LOT } });
    expect(response.status, response.text).toBe(200);
  });
});
