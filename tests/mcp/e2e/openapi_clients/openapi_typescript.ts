// A client of the served OpenAPI description as openapi-typescript users write one: the types it
// generated (../generated/openapi-typescript.d.ts) and openapi-fetch. Five routes, real answers.
import createClient from 'openapi-fetch';

import type { components, paths } from '../generated/openapi-typescript';
import { check, money, rawJson, same } from './check';

type Sheet = components['schemas']['Sheet'];

export async function run(base: string): Promise<number> {
  // JSON and problem+json (the routes' other formats are Markdown, HTML and CSV); a list parameter is
  // "a,b" over HTTP (style form, explode false), as the description says.
  const client = createClient<paths, `application/${string}json`>({ baseUrl: base, querySerializer: { array: { style: 'form', explode: false } } });
  let checks = 0;

  const prices = await client.GET('/v1/prices', { params: { query: { vendor: 'nvidia', tier: 'spot', sort: 'price' } } });
  check(prices.response.status === 200 && prices.data !== undefined, `/v1/prices: ${prices.response.status}`);
  const sheet: Sheet = prices.data;
  // Without `fields` the sheet has its rows (with it, a table of columns and rows instead).
  const rows = sheet.prices ?? [];
  check(rows.length > 0, 'a sheet with rows');
  const spot = rows.filter((r) => r.available).map((r) => Number(r.spot));
  check(spot.every((v, i) => i === 0 || spot[i - 1] <= v), 'sorted by the spot rate');
  check(rows.every((r) => !r.available || money.test(r.on_demand ?? '')), 'rates to the mill');
  check(same(sheet, await rawJson(base, '/v1/prices?vendor=nvidia&tier=spot&sort=price')), 'the body as served');
  checks += 4;

  const gpu = await client.GET('/v1/gpus/{gpu}', { params: { path: { gpu: 'h100-sxm' } } });
  check(gpu.data?.id === 'h100-sxm' && gpu.data.vram_gb === 80 && gpu.data.vendor === 'NVIDIA', 'GET /v1/gpus/h100-sxm');
  checks++;

  const missing = await client.GET('/v1/gpus/{gpu}', { params: { path: { gpu: 'h999' } } });
  check(missing.response.status === 404 && missing.data === undefined, '404 for an unknown GPU');
  check(missing.response.headers.get('content-type') === 'application/problem+json', 'a problem document');
  checks += 2;

  const estimate = await client.GET('/v1/estimate', { params: { query: { gpu: 'h100-sxm', hours: 10 } } });
  check(estimate.data?.total === '16.800' && estimate.data.effective_per_gpu_hour === '1.680', 'ten hours of H100 SXM');
  const line = estimate.data.lines[0];
  check(line.item === 'gpu_time' && line.amount === '16.800', 'the GPU time line');
  checks += 2;

  const compare = await client.GET('/v1/compare', { params: { query: { gpus: ['h100-sxm', 'l40s'] } } });
  check(compare.response.status === 200 && compare.data !== undefined, `/v1/compare: ${compare.response.status}`);
  check(same(compare.data.gpus.map((g) => g.gpu), ['h100-sxm', 'l40s']), 'both GPUs, in order');
  const h100 = compare.data.gpus[0];
  check(h100.available === true && h100.prices?.on_demand === '1.680', 'the H100 SXM on-demand rate');
  checks += 3;

  const refused = await client.GET('/v1/estimate', { params: { query: { gpu: 'h100-sxm', hours: -2 } } });
  check(refused.response.status === 400 && refused.error?.parameter === 'hours', 'a refused parameter is named');
  checks++;
  return checks;
}
