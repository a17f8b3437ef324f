// JSON-LD → entities: top-level arrays and @graph members become entities, nested objects nested entities, and
// {"@id"} references are followed. The blocks come from lenient-json.ts.
import type { Entity, EntityValue } from '../../artifacts.js';
import { addProp, normaliseProp, normaliseType } from './entities.js';
import { MAX_ENTITIES, MAX_JSON_DEPTH } from './limits.js';

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', euro: '€', pound: '£', yen: '¥', cent: '¢',
  copy: '©', reg: '®', trade: '™', hellip: '…', ndash: '–', mdash: '—', lsquo: '‘', rsquo: '’', ldquo: '“',
  rdquo: '”', laquo: '«', raquo: '»', deg: '°', times: '×', middot: '·', bull: '•',
};

/** Decodes the HTML entities some sites leave inside JSON-LD strings ("Black &amp; Silver"). */
export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});/g, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    const name = Object.hasOwn(NAMED_ENTITIES, body) ? body : body.toLowerCase();
    return Object.hasOwn(NAMED_ENTITIES, name) ? NAMED_ENTITIES[name] : whole;
  });
}

type JsonObject = Record<string, unknown>;
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

function isReference(o: JsonObject): boolean {
  const keys = Object.keys(o);
  return keys.length === 1 && keys[0] === '@id' && typeof o['@id'] === 'string';
}

function isNode(o: JsonObject): boolean {
  return Object.keys(o).some((k) => k !== '@context' && k !== '@graph' && k !== '@id');
}

/** Indexes nodes that define an @id, so {"@id": …} references elsewhere on the page can be followed. */
function indexIds(blocks: unknown[]): Map<string, JsonObject> {
  const ids = new Map<string, JsonObject>();
  const stack: { v: unknown; d: number }[] = blocks.map((v) => ({ v, d: 0 }));
  let steps = 0;
  while (stack.length > 0 && steps++ < 200_000) {
    const { v, d } = stack.pop() as { v: unknown; d: number };
    if (d > MAX_JSON_DEPTH) continue;
    if (Array.isArray(v)) {
      for (const x of v) stack.push({ v: x, d: d + 1 });
    } else if (isObject(v)) {
      const id = v['@id'];
      if (typeof id === 'string' && !isReference(v) && isNode(v) && !ids.has(id)) ids.set(id, v);
      for (const x of Object.values(v)) if (typeof x === 'object' && x !== null) stack.push({ v: x, d: d + 1 });
    }
  }
  return ids;
}

interface ConvertTask {
  json: JsonObject;
  entity: Entity;
  depth: number;
  path: readonly string[]; // @ids being expanded above this node (a reference back to one of them is a cycle)
}

/**
 * Turns parsed JSON-LD blocks into top-level entities: top-level arrays and @graph members become entities,
 * nested objects become nested entities, {"@id"} references are expanded (cycles and the entity budget stop it).
 */
export function jsonLdEntities(blocks: unknown[]): Entity[] {
  const ids = indexIds(blocks);
  const tops: Entity[] = [];
  const tasks: ConvertTask[] = [];
  let budget = MAX_ENTITIES;

  const newEntity = (json: JsonObject, depth: number, path: readonly string[]): Entity | null => {
    if (budget <= 0 || depth > MAX_JSON_DEPTH) return null;
    budget--;
    const entity: Entity = { types: jsonTypes(json['@type']), props: {}, source: 'json-ld' };
    const id = json['@id'];
    tasks.push({ json, entity, depth, path: typeof id === 'string' ? [...path, id] : path });
    return entity;
  };

  for (const node of topLevelNodes(blocks)) {
    const e = newEntity(node, 1, []);
    if (e) tops.push(e);
  }
  for (let i = 0; i < tasks.length; i++) {
    const task = tasks[i];
    for (const [key, raw] of Object.entries(task.json)) {
      if (key.startsWith('@')) continue;
      const values = jsonValues(raw, task, ids, newEntity);
      if (values.length > 0) {
        const name = normaliseProp(key);
        for (const v of values) addProp(task.entity, name, v);
      }
    }
  }
  return tops;
}

function* topLevelNodes(blocks: unknown[]): Generator<JsonObject> {
  // Depth-first in document order: a block's @graph members come before the next block's nodes.
  const stack: { v: unknown; d: number }[] = [];
  for (let i = blocks.length - 1; i >= 0; i--) stack.push({ v: blocks[i], d: 0 });
  let steps = 0;
  while (stack.length > 0 && steps++ < 100_000) {
    const { v, d } = stack.pop() as { v: unknown; d: number };
    if (d > MAX_JSON_DEPTH) continue;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], d: d + 1 });
    } else if (isObject(v)) {
      if (isNode(v) && !isReference(v)) yield v;
      const graph = v['@graph'];
      if (graph !== undefined) stack.push({ v: graph, d: d + 1 });
    }
  }
}

function jsonTypes(raw: unknown): string[] {
  const list = Array.isArray(raw) ? raw : [raw];
  const out: string[] = [];
  for (const t of list) {
    if (typeof t !== 'string') continue;
    const n = normaliseType(t);
    if (n && !out.includes(n)) out.push(n);
  }
  return out;
}

function jsonValues(
  raw: unknown,
  task: ConvertTask,
  ids: Map<string, JsonObject>,
  newEntity: (json: JsonObject, depth: number, path: readonly string[]) => Entity | null,
): EntityValue[] {
  const out: EntityValue[] = [];
  const stack: { v: unknown; d: number }[] = [{ v: raw, d: 0 }];
  while (stack.length > 0) {
    const { v, d } = stack.pop() as { v: unknown; d: number };
    if (task.depth + d > MAX_JSON_DEPTH) continue;
    if (typeof v === 'string') {
      const s = decodeEntities(v).trim();
      if (s !== '') out.push(s);
    } else if (typeof v === 'number' || typeof v === 'boolean') {
      out.push(String(v));
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], d: d + 1 });
    } else if (isObject(v)) {
      if ('@value' in v) stack.push({ v: v['@value'], d: d + 1 });
      else if ('@list' in v || '@set' in v) stack.push({ v: v['@list'] ?? v['@set'], d: d + 1 });
      else if (isReference(v)) out.push(expandReference(v['@id'] as string, task, ids, newEntity));
      else if (isNode(v)) {
        const e = newEntity(v, task.depth + 1, task.path);
        if (e) out.push(e);
      }
    }
  }
  return out;
}

function expandReference(
  id: string,
  task: ConvertTask,
  ids: Map<string, JsonObject>,
  newEntity: (json: JsonObject, depth: number, path: readonly string[]) => Entity | null,
): EntityValue {
  const target = ids.get(id);
  if (!target || task.path.includes(id)) return id;
  return newEntity(target, task.depth + 1, task.path) ?? id;
}
