import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';

interface ErrorBody {
  error: { code: string };
}
interface SuppressionBody {
  id: string;
  email: string;
  type: string;
}

describe('suppressions by address (issue 20): lookup, removal, manual by default', () => {
  let app: Appliance;
  let apiKey: string;

  before(async () => {
    app = await startAppliance({ processes: ['api'] });
    ({ apiKey } = await app.api.registerWithKey());
  });
  after(async () => {
    await app.stop();
  });

  const add = (body: Record<string, unknown>) =>
    app.api.post<SuppressionBody & ErrorBody>('/v1/suppressions', { token: apiKey, body });

  it('a manual add without a type is `manual`', async () => {
    const res = await add({ email: 'NoType@Example.org' });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.type, 'manual');
    assert.equal(res.body.email, 'notype@example.org');
  });

  it('GET by id and by address (any case, URL-encoded) answer the same suppression', async () => {
    const created = await add({ email: 'look@example.org', type: 'complaint' });
    assert.equal(created.status, 201, created.text);
    const byId = await app.api.get<SuppressionBody>(`/v1/suppressions/${created.body.id}`, { token: apiKey });
    assert.equal(byId.status, 200, byId.text);
    const byEmail = await app.api.get<SuppressionBody>('/v1/suppressions/Look%40Example.org', {
      token: apiKey,
    });
    assert.equal(byEmail.status, 200, byEmail.text);
    assert.deepEqual(byEmail.body, byId.body);
    assert.equal(byEmail.body.type, 'complaint');
  });

  it('DELETE by address removes it; again is 404; so is an address or id not on the list', async () => {
    const created = await add({ email: 'bye@example.org' });
    const del = await app.api.delete<{ id: string; deleted: boolean }>('/v1/suppressions/bye@example.org', {
      token: apiKey,
    });
    assert.equal(del.status, 200, del.text);
    assert.deepEqual(del.body, { id: created.body.id, deleted: true });
    for (const path of ['bye@example.org', created.body.id, 'never@example.org', 'not-an-address']) {
      const res = await app.api.get<ErrorBody>(`/v1/suppressions/${path}`, { token: apiKey });
      assert.equal(res.status, 404, path);
      assert.equal(res.body.error.code, 'SUPPRESSION_NOT_FOUND');
    }
    const again = await app.api.delete<ErrorBody>('/v1/suppressions/bye@example.org', { token: apiKey });
    assert.equal(again.status, 404);
  });

  it('another account’s suppression is not found, by id or address', async () => {
    const created = await add({ email: 'mine@example.org' });
    const other = await app.api.registerWithKey();
    for (const path of [created.body.id, 'mine@example.org']) {
      assert.equal((await app.api.get(`/v1/suppressions/${path}`, { token: other.apiKey })).status, 404);
      assert.equal((await app.api.delete(`/v1/suppressions/${path}`, { token: other.apiKey })).status, 404);
    }
    assert.equal((await app.api.get(`/v1/suppressions/${created.body.id}`, { token: apiKey })).status, 200);
  });
});
