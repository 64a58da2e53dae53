// A client of the served OpenAPI description as @hey-api/openapi-ts users write one: the SDK it
// generated (../generated/hey-api) with its fetch client. Five routes, real answers.
import { client } from '../generated/hey-api/client.gen';
import { compareGpus, getPriceHistory, getPrices, listGpus, sizeModel } from '../generated/hey-api/sdk.gen';
import type { Sheet } from '../generated/hey-api/types.gen';
import { check, money, rawJson, same } from './check';

export async function run(base: string): Promise<number> {
  client.setConfig({ baseUrl: base });
  let checks = 0;

  const prices = await getPrices({ query: { gpu: 'h100-sxm' } });
  check(prices.response?.status === 200 && prices.data !== undefined, `getPrices: ${prices.response?.status}`);
  const sheet: Sheet = prices.data;
  // Without `fields` the sheet has its rows (with it, a table of columns and rows instead).
  const rows = sheet.prices ?? [];
  check(rows.length === 1 && rows[0].gpu === 'h100-sxm', 'one row');
  check(rows[0].on_demand === '1.680' && rows[0].spot === '0.840', 'the worked example');
  check(same(sheet, await rawJson(base, '/v1/prices?gpu=h100-sxm')), 'the body as served');
  checks += 3;

  const history = await getPriceHistory({ path: { gpu: 'h100-sxm' } });
  check(history.data?.gpu === 'h100-sxm' && history.data.weeks.length >= 2, 'weeks of history');
  check(history.data.weeks.every((w) => !w.available || money.test(w.on_demand ?? '')), 'rates to the mill');
  checks += 2;

  const gpus = await listGpus({ query: { vendor: 'amd' } });
  const models = gpus.data?.gpus ?? [];
  check(models.length > 0, 'AMD models');
  check(models.every((g) => g.vendor === 'AMD'), 'only AMD');
  checks += 2;

  const sizing = await sizeModel({ query: { params_b: 70, precision: 'int8' } });
  check(sizing.data !== undefined && sizing.data.precision === 'int8', 'a sizing');
  check(sizing.data.models.length > 0 && sizing.data.models.every((m) => m.gpus_needed >= 1), 'GPUs needed per model');
  checks += 2;

  // The list parameter goes as "a,b": the SDK reads explode: false from the description.
  const compare = await compareGpus({ query: { gpus: ['h100-sxm', 'l40s'] } });
  check(compare.response?.status === 200 && compare.data !== undefined, `compareGpus: ${compare.response?.status}`);
  check(compare.request?.url.endsWith('/v1/compare?gpus=h100-sxm,l40s') === true, `${compare.request?.url}`);
  check(compare.data.gpus[0].prices?.on_demand === '1.680' && compare.data.gpus[1].gpu === 'l40s', 'the H100 SXM rate, then the L40S');
  checks += 3;

  // A tier the types do not allow (hence the cast), as a client without them could send: a problem.
  const refused = await getPrices({ query: { tier: 'weekly' as 'spot' } });
  check(refused.response?.status === 400 && refused.error?.parameter === 'tier', 'an unknown tier is refused');
  checks++;
  return checks;
}
