// Unit tests of outbound/url.ts: scan-target normalisation and refusal (docs/security.md S1, S2, S6, S7, S8), the address
// classifier against every row of "Address classes to refuse", host identity and bare host-name validation.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../lib/errors.js';
import { classifyAddress, normaliseScanUrl } from '../../outbound/url.js';
import { isHostName } from '../../lib/hosts.js';
import { hostIdentity } from '../../lib/hosts.js';

const PROD = { allowPrivate: false };
const DEV = { allowPrivate: true };
const CANARY_PORT = 45678; // never contacted: these are pure functions

function assertRefused(raw: string, opts = PROD, message?: RegExp): void {
  assert.throws(
    () => normaliseScanUrl(raw, opts),
    (err: unknown) => {
      assert.ok(err instanceof AppError, `expected AppError for ${raw}`);
      assert.equal(err.code, 'INVALID_URL');
      assert.ok(err.message.length > 10, 'a clear message');
      if (message) assert.match(err.message, message, raw);
      return true;
    },
    raw,
  );
}

test('adds https:// when the scheme is missing, trims, drops the fragment', () => {
  assert.equal(normaliseScanUrl('  shop.example.com  ', PROD).href, 'https://shop.example.com/');
  assert.equal(normaliseScanUrl('shop.example.com/p/1?x=2#top', PROD).href, 'https://shop.example.com/p/1?x=2');
  assert.equal(normaliseScanUrl('http://Shop.Example.com/#frag', PROD).href, 'http://shop.example.com/');
  assert.equal(normaliseScanUrl('//shop.example.com/a', PROD).href, 'https://shop.example.com/a');
  assert.equal(normaliseScanUrl('https://shop.example.com:443/', PROD).href, 'https://shop.example.com/');
  assert.equal(normaliseScanUrl('https://shop.example.com:80/', PROD).port, '80');
  assert.equal(normaliseScanUrl('https://8.8.8.8/', PROD).hostname, '8.8.8.8');
  assert.equal(normaliseScanUrl('http://[2606:4700::1111]/', PROD).hostname, '[2606:4700::1111]');
});

test('S1: loopback and internal IP literal spellings are refused (canonicalised by WHATWG URL first)', () => {
  const spellings = [
    '127.0.0.2', '127.2', '2130706434', '0x7f000002', '0177.0.0.02', '017700000002', '[::ffff:127.0.0.2]', '[::1]',
    '0.0.0.0', '0', '[::]', '%31%32%37.0.0.2', '①②⑦.0.0.2',
  ];
  for (const host of spellings) {
    assertRefused(`http://${host}/`, PROD, /not public/);
    assertRefused(`http://${host}:${CANARY_PORT}/`);
  }
});

test('S2: metadata and private literals are refused as not public', () => {
  const inputs = [
    'http://169.254.169.254/latest/meta-data/', 'http://0251.0376.0251.0376/', 'http://[::ffff:a9fe:a9fe]/',
    'http://[fd00:ec2::254]/', 'http://100.100.100.200/', 'http://192.0.0.192/', 'http://10.0.0.1/', 'http://172.16.0.1/',
    'http://192.168.1.1/', 'http://[fe80::1]/', 'http://[64:ff9b::a9fe:a9fe]/', 'http://[2002:a9fe:a9fe::]/', 'http://224.0.0.1/',
  ];
  for (const raw of inputs) assertRefused(raw, PROD, /not public/);
});

test('S2: the classifier denies every row of "Address classes to refuse" and allows public unicast', () => {
  const deny = [
    '127.0.0.1', '127.255.255.254', '::1', '0.0.0.0', '::', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1',
    '169.254.169.254', 'fe80::1', '100.100.100.200', '100.64.0.1', 'fd00:ec2::254', 'fc00::1', '192.0.0.192', '192.0.2.1',
    '198.18.0.1', '240.0.0.1', '192.88.99.1', '::ffff:169.254.169.254', '::127.0.0.1', '::ffff:8.8.8.8', '64:ff9b::a9fe:a9fe',
    '2002:a9fe:a9fe::', '2001::1', '224.0.0.1', 'ff02::1', '255.255.255.255', '100::1', '2001:db8::1', 'not-an-ip', '',
    '168.63.129.16', // Azure WireServer: unicast to ipaddr.js, a cloud metadata service all the same
  ];
  for (const ip of deny) assert.equal(classifyAddress(ip), 'deny', ip);
  for (const ip of ['8.8.8.8', '2606:4700::1111', '1.1.1.1', '[2606:4700::1111]']) assert.equal(classifyAddress(ip), 'allow', ip);
});

test('S6: non-http(s) schemes are refused', () => {
  const inputs = [
    'file:///etc/passwd', 'gopher://127.0.0.1:6379/_INFO', 'dict://127.0.0.1:11211/', 'ftp://127.0.0.1/', 'javascript:alert(1)',
    'data:text/html,x', 'ws://127.0.0.1/', 'wss://shop.example.com/', 'JaVaScRiPt:alert(1)', 'mailto:a@b.example',
  ];
  for (const raw of inputs) assertRefused(raw, DEV, /http/);
});

test('S7: ports other than 80/443 are refused in production; 65536 is an invalid URL', () => {
  for (const port of ['22', '6379', '0', '65535', '8080']) assertRefused(`http://shop.test.example:${port}/`);
  assertRefused('http://shop.test.example:65536/', PROD, /not a valid URL/);
  assertRefused('http://shop.test.example:65536/', DEV, /not a valid URL/);
  assertRefused('shop.test.example:99999', DEV, /not a valid URL/);
  assert.equal(normaliseScanUrl('http://shop.test.example:80/', PROD).href, 'http://shop.test.example/');
  assert.equal(normaliseScanUrl('127.0.0.1:8080', DEV).href, 'https://127.0.0.1:8080/');
  assert.equal(normaliseScanUrl('localhost:3000/x', DEV).href, 'https://localhost:3000/x');
});

test('S8: credentials and monster URLs are refused', () => {
  assertRefused('http://user:pass@shop.test.example/', PROD, /credentials/);
  assertRefused('http://user@shop.test.example/', DEV, /credentials/);
  assertRefused(`https://shop.test.example/${'a'.repeat(4096 - 26)}`, PROD, /2048/);
  assertRefused('', PROD);
  assertRefused('   ', PROD);
  assertRefused('http://', PROD);
  assertRefused('http://exa mple.com/', PROD);
});

test('local and single-label names are refused unless private targets are allowed', () => {
  for (const host of ['localhost', 'localhost.', 'LOCALHOST', 'shop.localhost', 'intranet', 'router.']) {
    assertRefused(`http://${host}/`);
    assert.ok(normaliseScanUrl(`http://${host}/`, DEV) instanceof URL, host);
  }
  assert.equal(normaliseScanUrl('http://127.0.0.1:3000/', DEV).port, '3000');
});

test('hostIdentity: lower case, no www., no trailing dot, port only when not the default', () => {
  assert.equal(hostIdentity(normaliseScanUrl('https://www.Shop.com/', PROD)), 'shop.com');
  assert.equal(hostIdentity(normaliseScanUrl('shop.com', PROD)), 'shop.com');
  assert.equal(hostIdentity(normaliseScanUrl('http://shop.com./a', PROD)), 'shop.com');
  assert.equal(hostIdentity(new URL('https://shop.com:443/')), 'shop.com');
  assert.equal(hostIdentity(new URL('http://shop.com:8080/')), 'shop.com:8080');
  assert.equal(hostIdentity(new URL('https://www2.shop.com/')), 'www2.shop.com');
  assert.equal(hostIdentity(new URL('https://bücher.example/')), 'xn--bcher-kva.example');
});

test('isHostName accepts bare host names and refuses markup, paths, userinfo and control characters', () => {
  for (const ok of ['shop.com', 'Shop.Example.COM', 'xn--bcher-kva.example', 'shop.com:8080', 'a-b.c0.example', 'localhost', 'a'.repeat(63) + '.com']) {
    assert.equal(isHostName(ok), true, ok);
  }
  const bad = [
    '', '<svg onload=alert(1)>', '<script>', 'a/b', '//evil.test', '\\evil.test', 'shop.test@evil.test', 'a b', 'shop.test\u0000',
    'shop.test\r\nLocation: http://evil.test', '../admin', '..', 'shop..com', '.shop.com', 'shop.com.', '-shop.com', 'shop-.com',
    'a'.repeat(64) + '.com', `${'a'.repeat(60)}.`.repeat(5) + 'com', 'shop.com:0', 'shop.com:65536', 'shop.com:', 'shop.com:80:80',
    'shop_1.com', 'bücher.example', '{"$gt":""}', 'shop.com\t',
  ];
  for (const s of bad) assert.equal(isHostName(s), false, JSON.stringify(s));
  assert.equal(isHostName(undefined as unknown as string), false);
});
