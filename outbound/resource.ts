// What one request returns: the response as the scanner keeps it, or why there is none. The fetcher's answer,
// read by the audit engine (scan/artifacts.ts re-exports it), ownership checks and webhook deliveries.

/** Why a resource is not usable. `status` = the store answered with a non-2xx status (the response is kept). */
export type FailReason = 'missing' | 'status' | 'blocked' | 'timeout' | 'too-large' | 'error' | 'not-fetched';

export interface HttpResponse {
  requestedUrl: string;
  url: string; // final URL after redirects
  status: number;
  headers: Record<string, string>; // lower-case names; repeated headers joined with ", "
  contentType: string; // media type only, lower case ("text/html")
  body: string; // decoded text, capped
  ms: number; // time until the whole body was received
  redirects: string[]; // every Location followed, in order
}

export type Resource =
  | { ok: true; res: HttpResponse }
  | { ok: false; reason: FailReason; detail: string; url: string; res?: HttpResponse };
