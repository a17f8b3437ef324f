// One JSON answer from an address the CI user configured (their hosted instance, a saved baseline): a time limit,
// a size cap, and an error that says what went wrong in a sentence.
export const MAX_JSON_BYTES = 8 * 1024 * 1024;

export class CiFetchError extends Error {}

export interface JsonAnswer {
  status: number;
  headers: Headers;
  body: unknown;
}

export async function fetchJson(url: string, init: { headers?: Record<string, string>; timeoutMs: number; signal?: AbortSignal }): Promise<JsonAnswer> {
  const signals = [AbortSignal.timeout(init.timeoutMs), ...(init.signal ? [init.signal] : [])];
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: 'application/json', ...init.headers }, redirect: 'follow', signal: AbortSignal.any(signals) });
  } catch (err) {
    const reason = (err as Error).name === 'TimeoutError' ? `no answer within ${Math.round(init.timeoutMs / 1000)} s` : ((err as Error & { cause?: Error }).cause?.message ?? (err as Error).message);
    throw new CiFetchError(`${new URL(url).origin} could not be reached: ${reason}`);
  }
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > MAX_JSON_BYTES) throw new CiFetchError(`${url} answered more than ${MAX_JSON_BYTES} bytes`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body ?? []) {
    size += chunk.byteLength;
    if (size > MAX_JSON_BYTES) {
      await res.body?.cancel();
      throw new CiFetchError(`${url} answered more than ${MAX_JSON_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new CiFetchError(`${url} answered ${res.status} with a body that is not JSON`);
  }
  return { status: res.status, headers: res.headers, body };
}
