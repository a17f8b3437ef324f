// The indexes each step of a queue claim uses on a real MongoDB, read from `explain` (docs/deployment.md "Background crawling: capacity"):
// the hosts with claimable work are a DISTINCT_SCAN of `claim`, the free and due hosts an index scan of `_id`, the
// item of a host and a group's pages index scans of `claim` and `group_seq`. Runs where MONGODB_URI is set.
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { MongoClient, type Document } from 'mongodb';
import { MongoRepo } from '../../../db/mongo/repo.js';
import * as W from '../../../db/mongo/queue-queries.js';
import type { PaceDoc, WorkDoc } from '../../../db/mongo/queue-queries.js';

const uri = process.env.MONGODB_URI;
const name = `test_${process.pid}_${randomBytes(4).toString('hex')}`;

/** Every stage name of a winning plan, depth first. */
function stages(plan: Document | undefined): string[] {
  if (!plan) return [];
  const own = [`${plan.stage}${plan.indexName ? `:${plan.indexName}` : ''}`];
  const children = [plan.inputStage, ...(plan.inputStages ?? [])].filter(Boolean) as Document[];
  return [...own, ...children.flatMap(stages)];
}

test('each claim step uses its index, never a collection scan', { skip: !uri && 'MONGODB_URI not set' }, async () => {
  const repo = new MongoRepo(uri!, name);
  await repo.init();
  const client = new MongoClient(uri!);
  after(async () => {
    await client.db(name).dropDatabase();
    await client.close();
    await repo.close();
  });
  const now = new Date();
  await repo.queue.enqueue(
    Array.from({ length: 500 }, (_, i) => ({ id: `w${i}`, kind: 'audit_page' as const, group: `g${i % 5}`, host: `h${i % 50}.example`, url: `https://h${i % 50}.example/${i}`, seq: i, createdAt: now })),
  );
  const db = client.db(name);
  const work = db.collection<WorkDoc>('work_items');
  const pace = db.collection<PaceDoc>('host_pace');
  const planOf = async (p: Promise<Document>) => stages(((await p).queryPlanner as Document).winningPlan as Document);

  const distinct = await db.command({ explain: { distinct: 'work_items', key: 'host', query: W.claimableWork('audit_page', now) }, verbosity: 'queryPlanner' });
  assert.ok(stages((distinct.queryPlanner as Document).winningPlan as Document).some((s) => /DISTINCT_SCAN:claim|IXSCAN:claim/.test(s)), JSON.stringify(distinct.queryPlanner));
  const hosts = await planOf(pace.find(W.freeHosts(['h1.example', 'h2.example'], now)).sort(W.PACE_SORT).limit(20).explain('queryPlanner'));
  assert.ok(hosts.some((s) => s.startsWith('IXSCAN') || s.startsWith('IDHACK')), hosts.join(' > '));
  const item = await planOf(work.find(W.claimableOfHost('audit_page', 'h1.example', now)).sort(W.ITEM_SORT).limit(1).explain('queryPlanner'));
  assert.ok(item.includes('IXSCAN:claim'), item.join(' > '));
  const group = await planOf(work.find(W.groupAfter('g1', 0)).sort(W.ITEM_SORT).limit(1000).explain('queryPlanner'));
  assert.ok(group.includes('IXSCAN:group_seq'), group.join(' > '));
  for (const plan of [hosts, item, group]) assert.ok(!plan.includes('COLLSCAN'), plan.join(' > '));
});
