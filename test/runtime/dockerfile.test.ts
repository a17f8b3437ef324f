// Images cannot be built here, so the Dockerfile and compose file are held to what the suite does run: the
// image installs with `npm ci` (whose `prepare` is the `npm run build` that test/runtime/build-start.test.ts
// runs), starts with exactly the `start` script's command as PID 1, as a non-root user, with DATA_DIR on a
// volume and a health check on /healthz. Compose runs several instances on a MongoDB replica set with the
// production settings required and a stop grace period no shorter than the service's shutdown bound.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { metricsCallers } from '../../server/metrics.js';
import { REPO_ROOT } from '../support/child-server.js';
import { loadConfig } from '../../lib/config.js';
import { shutdownBoundMs } from '../../server/main.js';

const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

/** Dockerfile instructions of the final stage and of all stages, continuation lines joined, comments dropped. */
function instructions(): { all: { op: string; args: string }[]; final: { op: string; args: string }[] } {
  const text = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const all = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => ({ op: l.split(/\s+/)[0].toUpperCase(), args: l.slice(l.split(/\s+/)[0].length).trim() }));
  const lastFrom = all.map((i) => i.op).lastIndexOf('FROM');
  return { all, final: all.slice(lastFrom) };
}

test('the image builds with the package scripts and starts with exactly the start script', () => {
  const { all, final } = instructions();
  const runs = all.filter((i) => i.op === 'RUN').map((i) => i.args);
  assert.ok(runs.some((r) => /^npm ci\b/.test(r)), `npm ci: ${runs.join(' | ')}`);
  assert.equal(pkg.scripts.prepare, 'npm run build', 'npm ci builds through prepare');
  assert.equal(pkg.scripts.build, 'node scripts/build.mjs');
  // Every `npm run X` the image uses is a script of the package.
  for (const [, name] of runs.join('\n').matchAll(/npm run ([\w:-]+)/g)) assert.ok(pkg.scripts[name], `npm run ${name} is a package script`);

  const cmd = final.find((i) => i.op === 'CMD');
  assert.ok(cmd, 'CMD');
  const argv = JSON.parse(cmd.args) as string[];
  assert.equal(argv.join(' '), pkg.scripts.start.replace(/^exec /, ''), 'CMD is the start script, without npm or a shell');

  const user = final.find((i) => i.op === 'USER');
  assert.ok(user && !['root', '0'].includes(user.args), `runs as a non-root user: ${user?.args}`);
  const env = final.filter((i) => i.op === 'ENV').map((i) => i.args).join(' ');
  const dataDir = /DATA_DIR=(\S+)/.exec(env)?.[1];
  assert.ok(dataDir, 'DATA_DIR is set');
  assert.match(env, /NODE_ENV=production/);
  assert.deepEqual(JSON.parse(final.find((i) => i.op === 'VOLUME')!.args), [dataDir], 'DATA_DIR is the volume');
  assert.match(final.find((i) => i.op === 'HEALTHCHECK')?.args ?? '', /\/healthz/);
  assert.equal(final.find((i) => i.op === 'STOPSIGNAL')?.args, 'SIGTERM');
});

test('compose runs several instances on a MongoDB replica set, production settings required, grace period long enough', () => {
  const compose = parse(readFileSync(join(REPO_ROOT, 'compose.yaml'), 'utf8'), { merge: true }) as {
    services: Record<string, { command?: string[]; environment?: Record<string, string>; stop_grace_period?: string; build?: string }>;
  };
  const apps = Object.entries(compose.services).filter(([, s]) => s.build === '.');
  assert.ok(apps.length >= 2, 'several instances');
  assert.ok(compose.services.mongo.command?.includes('--replSet'), 'MongoDB runs as a replica set');
  for (const [name, app] of apps) {
    const env = app.environment ?? {};
    assert.match(env.MONGODB_URI, /replicaSet=/, name);
    assert.equal(env.NODE_ENV, 'production', name);
    for (const required of ['BASE_URL', 'SECRETS_KEY', 'SMTP_URL']) assert.match(env[required], /^\$\{\w+:\?/, `${name}: ${required} must be given`);
    const grace = Number(/^(\d+)s$/.exec(app.stop_grace_period ?? '')?.[1]) * 1000;
    const bound = shutdownBoundMs(loadConfig({ SHUTDOWN_DRAIN_MS: env.SHUTDOWN_DRAIN_MS }));
    assert.ok(grace >= bound, `${name}: stop_grace_period ${grace} ms covers the shutdown bound ${bound} ms`);
  }
});

test('compose keeps /metrics off the published ports: only the scraper address on the internal metrics network may read it', () => {
  const compose = parse(readFileSync(join(REPO_ROOT, 'compose.yaml'), 'utf8'), { merge: true }) as {
    services: Record<string, { build?: string; environment?: Record<string, string>; networks?: string[]; ports?: string[] }>;
    networks: Record<string, { internal?: boolean; ipam?: { config?: { subnet: string; gateway: string }[] } }>;
  };
  const metricsNet = compose.networks.metrics;
  assert.equal(metricsNet.internal, true, 'the metrics network reaches nothing outside');
  const [{ subnet, gateway }] = metricsNet.ipam!.config!;
  for (const [name, app] of Object.entries(compose.services).filter(([, s]) => s.build === '.')) {
    assert.ok(app.networks?.includes('metrics'), `${name} is on the metrics network`);
    const value = /^\$\{METRICS_ALLOW:-(.+)\}$/.exec(app.environment?.METRICS_ALLOW ?? '')?.[1];
    assert.ok(value, `${name}: METRICS_ALLOW has a default`);
    const allowed = metricsCallers(loadConfig({ METRICS_ALLOW: value }).METRICS_ALLOW);
    const scrapers = value.split(',').filter((range) => !/^(127\.|::1)/.test(range)).map((range) => range.replace(/\/32$/, ''));
    assert.equal(scrapers.length, 1, `${name}: one scraper address besides loopback`);
    const [scraper] = scrapers;
    assert.ok(metricsCallers([subnet])(scraper) && scraper !== gateway, `${name}: the scraper address is on the metrics network, not its gateway`);
    assert.equal(allowed(scraper), true);
    assert.equal(allowed('127.0.0.1'), true, 'a check inside the container');
    // Published-port traffic (the load balancer's) arrives from the gateway of a Docker network: the metrics
    // network's own, or one of the address pools Docker takes networks from (172.17.0.0/16 … 172.31.0.0/16, 192.168.0.0/16).
    for (const from of [gateway, '172.17.0.1', '172.18.0.1', '172.31.0.1', '192.168.0.1', '10.89.0.2', '::ffff:172.18.0.1']) {
      assert.equal(allowed(from), false, `${name}: ${from} must not read /metrics`);
    }
  }
});
