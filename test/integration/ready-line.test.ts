import { after, before, describe, it } from 'node:test';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import { waitUntil } from '../helpers/wait-until';

// The api's ready line says where the dashboard is: BASE_URL when set, http://localhost:$PORT/ otherwise, then /app/.
describe('the ready line names the dashboard URL', () => {
  let defaults: Appliance;
  let configured: Appliance;
  before(async () => {
    defaults = await startAppliance({ processes: ['api'] });
    configured = await startAppliance({ processes: ['api'], env: { BASE_URL: 'https://mail.example.net' } });
  });
  after(async () => {
    await defaults?.stop();
    await configured?.stop();
  });

  it('is http://localhost:$PORT/app/ on defaults', async () => {
    const want = `api listening: the dashboard is at http://localhost:${defaults.ports.http}/app/`;
    await waitUntil(want, () => defaults.lines.some((line) => line.includes(want)));
  });

  it("is BASE_URL's when set", async () => {
    const want = 'api listening: the dashboard is at https://mail.example.net/app/';
    await waitUntil(want, () => configured.lines.some((line) => line.includes(want)));
  });
});
