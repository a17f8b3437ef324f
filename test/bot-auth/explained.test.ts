// What a site owner reads about the scanner's signatures and its requests as each AI agent: /bot and /llms.txt
// name the key directory, the draft's headers and how to verify, and the matrix's user-agents and caps; with
// SIGN_REQUESTS=off /bot says the requests are unsigned.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startApp } from '../helpers/start-app.js';

describe('the scanner explained to store owners', () => {
  it('/bot: how to verify and allow signed requests, and what asking as each agent sends', async (t) => {
    const app = await startApp(t, { AGENTS_MAX_REQUESTS: '24' });
    const page = await (await fetch(`${app.url}/bot`)).text();
    assert.match(page, /<h2 id="signed-h">Signed requests \(Web Bot Auth\)<\/h2>/);
    assert.match(page, /Signature-Agent: sig1=&quot;http:\/\/localhost:3000&quot;/);
    assert.match(page, /tag=&quot;web-bot-auth&quot;/);
    assert.match(page, /href="http:\/\/localhost:3000\/\.well-known\/http-message-signatures-directory"/);
    assert.match(page, /application\/http-message-signatures-directory\+json/);
    assert.match(page, /ChatGPT-User\/1\.0; \+https:\/\/openai\.com\/bot store-readiness-agents\/1\.0 \(\+http:\/\/localhost:3000\/bot\)/);
    assert.match(page, /at most <strong data-testid="agents-requests">24<\/strong> per scan beside the 20 of the scan itself/);
  });

  it('/bot with SIGN_REQUESTS=off says the requests are unsigned', async (t) => {
    const app = await startApp(t, { SIGN_REQUESTS: 'off' });
    const page = await (await fetch(`${app.url}/bot`)).text();
    assert.match(page, /This instance does not sign its requests/);
    assert.doesNotMatch(page, /Signature-Agent:/);
  });

  it('/llms.txt links the key directory and says how to verify', async (t) => {
    const app = await startApp(t);
    const llms = await (await fetch(`${app.url}/llms.txt`)).text();
    assert.match(llms, /^## How the scanner identifies itself to stores$/m);
    assert.ok(llms.includes('[key directory](http://localhost:3000/.well-known/http-message-signatures-directory)'));
    assert.ok(llms.includes('`Signature-Agent: sig1="http://localhost:3000"`'));
    assert.ok(llms.includes('`store-readiness-agents/1.0 (+http://localhost:3000/bot)`'));
  });
});
