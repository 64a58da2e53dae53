// What both generated clients' programs share: a check that throws, and the raw body of a GET to
// compare a client's parsed answer with.
export function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`check failed: ${what}`);
}

export async function rawJson(base: string, path: string): Promise<unknown> {
  const res = await fetch(new URL(path, base), { headers: { Accept: 'application/json' } });
  check(res.status === 200, `GET ${path}: ${res.status}`);
  return res.json();
}

export const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
export const money = /^[0-9]+\.[0-9]{3}$/;
